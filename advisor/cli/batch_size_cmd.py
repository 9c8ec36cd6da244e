"""`gpu-advisor batch-size`: the largest batch that runs full steps, the one to use, and the throughput knee."""

from enum import Enum
from typing import Annotated, Optional

import typer

from advisor.cli.options import FormatOption, NoRedactOption, OutputOption


class Mode(str, Enum):
    train = "train"
    inference = "inference"


class OptimizerName(str, Enum):
    sgd = "sgd"
    adam = "adam"
    adamw = "adamw"


class Amp(str, Enum):
    bf16 = "bf16"
    fp16 = "fp16"


INPUT_DTYPES = ("float32", "float16", "bfloat16", "float64", "int64", "int32")
#: Rows of random sample data the batch is built from (repeated cyclically).
SAMPLE_ROWS = 8


def parse_input_shape(text: Optional[str], default: Optional[tuple[int, ...]]) -> tuple[int, ...]:
    from advisor.cli.errors import CliError
    from advisor.recommend.memory_fit import parse_shape

    if text is None:
        if default is None:
            raise CliError("--input-shape is required for this model (the shape of one sample, without the batch "
                           "dimension, e.g. 3,224,224)")
        return default
    try:
        return parse_shape(text)
    except ValueError as error:
        raise CliError(f"--input-shape: {error}") from None


def make_sample(model, shape: tuple[int, ...], dtype: str):
    """Random rows of one sample's shape: normal floats, or token ids below the model's smallest vocabulary."""
    import torch

    if dtype.startswith("int"):
        vocab = [m.num_embeddings for m in model.modules() if isinstance(m, torch.nn.Embedding)]
        high = min(vocab) if vocab else 1000
        return torch.randint(0, high, (SAMPLE_ROWS, *shape), dtype=getattr(torch, dtype))
    return torch.randn(SAMPLE_ROWS, *shape, dtype=getattr(torch, dtype))


def batch_size(
    model: Annotated[str, typer.Option(
        "--model", "-m", help="pkg.module:attr (an nn.Module instance, or a factory/class called with no "
                              "arguments, like uvicorn's module:app); a demo: mlp, cnn, transformer; or a "
                              "torchvision model name (resnet50, vit_b_16, ...).")],
    input_shape: Annotated[Optional[str], typer.Option(
        "--input-shape", help="One sample's shape without the batch dimension, e.g. 3,224,224 (demos and "
                              "torchvision models have a default).")] = None,
    input_dtype: Annotated[Optional[str], typer.Option(
        "--input-dtype", help=f"The input's dtype: {', '.join(INPUT_DTYPES)}. Integer inputs are token ids below "
                              "the smallest nn.Embedding's size. Default: float32 (int64 for the transformer demo).")] = None,
    target: Annotated[Optional[str], typer.Option(
        "--target", help="What 'fast enough' or 'small enough' means. throughput=F (or just F, default 0.95): the "
                         "knee is the smallest batch reaching F of the peak samples/s. memory=F: also cap the "
                         "recommended batch so its predicted peak stays under F of the GPU's total memory "
                         "(a shared GPU).")] = None,
    mode: Annotated[Mode, typer.Option("--mode", help="train: forward, backward and optimizer step; inference: "
                                                      "forward under torch.inference_mode.")] = Mode.train,
    optimizer: Annotated[OptimizerName, typer.Option(
        "--optimizer", help="Its state counts: SGD (momentum) one copy of the weights, Adam/AdamW two.")] = OptimizerName.adam,
    amp: Annotated[Optional[Amp], typer.Option("--amp", help="Autocast dtype (fp16 adds a GradScaler).")] = None,
    margin: Annotated[float, typer.Option(
        "--margin", min=0.0, max=0.5, help="Share of the usable GPU memory kept free by the recommended batch "
                                           "(fragmentation over a long run, evaluation, other processes).")] = 0.10,
    max_batch: Annotated[Optional[int], typer.Option("--max-batch", min=1, help="Never try a batch above N.")] = None,
    device: Annotated[int, typer.Option("--device", min=0, help="torch index of the GPU.")] = 0,
    no_throughput: Annotated[bool, typer.Option(
        "--no-throughput", help="Only the memory answer: skip timing the throughput curve (faster).")] = False,
    budget: Annotated[float, typer.Option(
        "--budget", min=5.0, help="Wall-time budget in seconds; past it the best answer so far is reported.")] = 300.0,
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
) -> None:
    """Which batch size fits and which one is fast, measured with real training steps on this GPU."""
    from advisor.cli.errors import EXIT_FAILURE, CliError
    from advisor.recommend.model_source import ModelSourceError, load_model
    from advisor.recommend.policy import parse_target

    try:
        chosen_target = parse_target(target)
    except ValueError as error:
        raise CliError(str(error)) from None
    if input_dtype is not None and input_dtype not in INPUT_DTYPES:
        raise CliError(f"--input-dtype {input_dtype!r}: expected one of {', '.join(INPUT_DTYPES)}")
    try:
        loaded = load_model(model, time_limit_s=budget)  # --budget covers the import and the factory too
    except ModelSourceError as error:
        raise CliError(str(error)) from None
    shape = parse_input_shape(input_shape, loaded.default_input_shape)
    dtype = input_dtype or loaded.default_input_dtype or "float32"

    from advisor.cli.measure_setup import gpu_unusable_reason
    from advisor.measure.timer import Stopwatch
    from advisor.probe import collect_facts

    watch = Stopwatch()
    facts = collect_facts()
    reason = gpu_unusable_reason(facts)
    if reason is not None:
        raise CliError(f"no usable CUDA device: {reason}", EXIT_FAILURE)
    count = facts.torch.device_count
    if isinstance(count, int) and device >= count:
        raise CliError(f"--device {device}: torch sees {count} GPU(s) (0..{count - 1})")
    result = _search(loaded, shape, dtype, chosen_target, mode=mode.value, optimizer=optimizer.value,
                     amp=amp.value if amp else None, margin=margin, max_batch=max_batch, device=device,
                     throughput=not no_throughput, budget=max(budget - loaded.load_s, 1.0))

    from advisor.cli.output import write_report
    from advisor.cli.pipeline import build_report

    report = build_report("batch-size", facts, sources=["probe", "batch-size search"], rules_dirs=None)
    report.recommendations.append(result.to_recommendation())
    report.meta.wall_s = round(watch.elapsed(), 2)
    write_report(report, fmt=fmt, output=output, redact=not no_redact)
    if not result.fits_at_all:
        raise CliError(f"{loaded.label} does not fit on this GPU even at batch {result.trials[0].batch}: "
                       f"{result.trials[0].message}", EXIT_FAILURE)


def _search(loaded, shape, dtype, target, *, mode, optimizer, amp, margin, max_batch, device, throughput, budget):
    from advisor.cli.errors import EXIT_FAILURE, CliError
    from advisor.cli.measure_setup import progress_bar
    from advisor.recommend.api import recommend_batch_size
    from advisor.recommend.errors import ModelRejectedInput, NoCudaDevice

    try:
        sample = make_sample(loaded.model, shape, dtype)
    except Exception as error:  # noqa: BLE001 -- e.g. a dtype torch cannot make random values of
        raise CliError(f"cannot build an input of shape {shape} {dtype}: {error}") from None
    with progress_bar("batch size") as update:
        steps = [0]

        def progress(message: str) -> None:
            steps[0] += 1
            update(message, steps[0], steps[0] + 1)

        try:
            return recommend_batch_size(
                loaded.model, sample, mode=mode, optimizer=optimizer, amp=amp, margin=margin, target=target,
                max_batch=max_batch, device=f"cuda:{device}", throughput=throughput, time_budget_s=budget,
                progress=progress, model_label=loaded.label)
        except ModelRejectedInput as error:
            raise CliError(f"the model rejected the input: shape {(1, *shape)} {dtype} (batch first) -> "
                           f"{error.model_message}") from None
        except NoCudaDevice as error:
            raise CliError(str(error), EXIT_FAILURE) from None
        except ValueError as error:  # arguments the API refuses (e.g. nothing trainable in train mode)
            raise CliError(str(error)) from None
        except KeyboardInterrupt:
            raise CliError("interrupted: the model was restored and the GPU memory released", 130) from None


def register(app: typer.Typer) -> None:
    app.command("batch-size")(batch_size)
