"""What can stop a recommendation, as exception types the CLI maps to exit codes (and an API caller can catch)."""

from __future__ import annotations


class RecommendError(Exception):
    """Base: anything that stops recommend_batch_size from giving an answer."""


class NoCudaDevice(RecommendError):
    """No usable CUDA device (CPU-only torch, no driver, CUDA_VISIBLE_DEVICES hides them)."""


class ModelRejectedInput(RecommendError):
    """The model raised something other than out-of-memory at the first, smallest batch: the input does not fit
    the model (wrong shape or dtype), or the model itself is broken."""

    def __init__(self, message: str, *, input_description: str, batch: int) -> None:
        super().__init__(f"the model failed on an input of {input_description} at batch {batch}: {message}")
        self.model_message = message
        self.input_description = input_description
        self.batch = batch
