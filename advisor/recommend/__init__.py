"""Recommendations from measurements: the batch size that fits and is fast, and GPU memory headroom.

Pure decision code (memory_model, search, knee, policy, memory_fit, oom_explain) never touches a GPU and is
tested on CPU with recorded numbers; driver, state, memory_probe and api run the real steps. torch is imported
inside functions only (demo_models excepted, imported only when a demo model is asked for).
"""

from __future__ import annotations

from typing import Any


def recommend_batch_size(*args: Any, **kwargs: Any):  # noqa: ANN201 -- see advisor.recommend.api
    from advisor.recommend.api import recommend_batch_size as run

    return run(*args, **kwargs)


recommend_batch_size.__doc__ = "See advisor.recommend.api.recommend_batch_size."
__all__ = ["recommend_batch_size"]
