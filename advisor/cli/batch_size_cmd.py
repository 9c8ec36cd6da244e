"""`gpu-advisor batch-size`: the largest batch that runs full steps, the one to use, and the throughput knee."""

from typing import Annotated, Optional

import typer

from advisor.app.batch_size_service import INPUT_DTYPES
from advisor.cli.options import (
    FailOn,
    FailOnOption,
    FormatOption,
    NoRedactOption,
    OutputOption,
    VerboseOption,
    choice_enum,
)
from advisor.models.recommendations import AmpDType, OptimizerName, StepMode

StepModeChoice = choice_enum("StepModeChoice", StepMode)
OptimizerChoice = choice_enum("OptimizerChoice", OptimizerName)
AmpChoice = choice_enum("AmpChoice", AmpDType)


def batch_size(
    model: Annotated[str, typer.Option(
        "--model", "-m", metavar="MODEL", help="pkg.module:attr or path/to/file.py:attr (an nn.Module instance, or a factory/class called with no "
                              "arguments, like uvicorn's module:app); a demo: mlp, cnn, transformer; or a "
                              "torchvision model name (resnet50, vit_b_16, ...).")],
    input_shape: Annotated[Optional[str], typer.Option(
        "--input-shape", metavar="SHAPE", help="One sample's shape without the batch dimension, e.g. 3,224,224 (demos and "
                              "torchvision models have a default).")] = None,
    input_dtype: Annotated[Optional[str], typer.Option(
        "--input-dtype", metavar="DTYPE", help=f"The input's dtype: {', '.join(INPUT_DTYPES)}. Integer inputs are token ids below "
                              "the smallest nn.Embedding's size. Default: float32 (int64 for the transformer demo).")] = None,
    target: Annotated[Optional[str], typer.Option(
        "--target", metavar="TARGET", help="What 'fast enough' or 'small enough' means. throughput=F (or just F, default 0.95): the "
                         "knee is the smallest batch reaching F of the peak samples/s. memory=F: also cap the "
                         "recommended batch so its predicted peak stays under F of the GPU's total memory "
                         "(a shared GPU).")] = None,
    mode: Annotated[StepModeChoice, typer.Option("--mode", metavar="MODE", case_sensitive=False, help="train: forward, backward and optimizer step; inference: "
                                                      "forward under torch.inference_mode.")] = StepModeChoice.train,
    optimizer: Annotated[OptimizerChoice, typer.Option(
        "--optimizer", metavar="NAME", case_sensitive=False, help="sgd, adam or adamw; its state counts: SGD (momentum) one copy of the weights, Adam/AdamW two.")] = OptimizerChoice.adam,
    amp: Annotated[Optional[AmpChoice], typer.Option("--amp", metavar="DTYPE", case_sensitive=False, help="Autocast to bf16 or fp16 (fp16 adds a GradScaler).")] = None,
    margin: Annotated[float, typer.Option(
        "--margin", min=0.0, max=0.5, metavar="F", help="Share of the usable GPU memory kept free by the recommended batch "
                                           "(fragmentation over a long run, evaluation, other processes).")] = 0.10,
    max_batch: Annotated[Optional[int], typer.Option("--max-batch", min=1, metavar="N", help="Never try a batch above N.")] = None,
    device: Annotated[int, typer.Option("--device", min=0, metavar="N", help="torch index of the GPU.")] = 0,
    no_throughput: Annotated[bool, typer.Option(
        "--no-throughput", help="Only the memory answer: skip timing the throughput curve (faster).")] = False,
    budget: Annotated[float, typer.Option(
        "--budget", min=5.0, metavar="SECONDS", help="Wall-time budget in seconds; past it the best answer so far is reported.")] = 300.0,
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
    verbose: VerboseOption = False,
    fail_on: FailOnOption = FailOn.never,
) -> None:
    """Which batch size fits and which one is fast, measured with real training steps on this GPU."""
    from advisor.app.batch_size_service import BatchSizeRequest, batch_size_report
    from advisor.cli.output import exit_code_for, write_report

    outcome = batch_size_report(BatchSizeRequest(
        model=model, input_shape=input_shape, input_dtype=input_dtype, target=target, mode=mode.value,
        optimizer=optimizer.value, amp=amp.value if amp else None, margin=margin, max_batch=max_batch,
        device=device, throughput=not no_throughput, budget_s=budget))
    write_report(outcome.report, fmt=fmt, output=output, redact=not no_redact, verbose=verbose)
    if outcome.failure is not None:
        raise outcome.failure
    raise typer.Exit(exit_code_for(outcome.report, fail_on))


def register(app: typer.Typer) -> None:
    app.command("batch-size")(batch_size)
