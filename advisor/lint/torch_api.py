"""What the linter knows about the torch, numpy and stdlib APIs it reasons about: tables only, no logic.

Names are fully qualified (after names.Names.qual) or bare method names where the receiver decides.
"""

from __future__ import annotations

import ast
import re
import sys

from advisor.lint.names import last_identifier

# Host clocks: reading one before and after GPU work is a timing.
CLOCKS = frozenset({
    "time.time", "time.perf_counter", "time.monotonic", "time.process_time", "time.time_ns",
    "time.perf_counter_ns", "time.monotonic_ns", "timeit.default_timer",
    "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today",
})
TIMEIT_CALLS = frozenset({"timeit.timeit", "timeit.repeat", "timeit.Timer"})
SYNC_FUNCTIONS = frozenset({"torch.cuda.synchronize", "torch.accelerator.synchronize", "torch.synchronize"})

# Tensor factories: torch.<name>(..., device=..., dtype=...).
FACTORIES = frozenset({
    "tensor", "as_tensor", "asarray", "from_numpy", "randn", "rand", "randint", "zeros", "ones", "empty", "full",
    "arange", "range", "linspace", "logspace", "eye", "randperm", "normal", "empty_strided", "zeros_like",
    "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "randint_like", "bernoulli",
    # window functions (an STFT's or a mel front end's window): filled on the device they are made on
    "hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window",
    # legacy constructors, still common in older tutorials
    "Tensor", "FloatTensor", "DoubleTensor", "LongTensor", "IntTensor", "HalfTensor", "ByteTensor", "BoolTensor",
    # sample frequencies (torch.fft.fftfreq(n, d, device=...)): a grid like arange's
    "fftfreq", "rfftfreq",
})
# The factories that live in a submodule of torch, by their import path (torch_factories.torch_factory reads both tables).
SUBMODULE_FACTORIES = {"torch.fft.fftfreq": "fftfreq", "torch.fft.rfftfreq": "rfftfreq"}
# Factories that draw from the tensors they are given when given one (torch.bernoulli(p), torch.normal(mean, std)):
# the draws are made where those tensors are, shaped like them -- a computation on them, not a fill.
SAMPLING_FACTORIES = frozenset({"bernoulli", "normal"})
# Factories that launch no kernel on the device: uninitialised memory, or a copy of host data.
NON_FILLING_FACTORIES = frozenset({"empty", "empty_like", "empty_strided", "tensor", "as_tensor", "asarray",
                                   "from_numpy", "Tensor", "FloatTensor", "DoubleTensor", "LongTensor", "IntTensor",
                                   "HalfTensor", "ByteTensor", "BoolTensor"})
# These wrap data that already exists: moving them is the copy itself, not a tensor that could be born there.
WRAPPING_FACTORIES = frozenset({"from_numpy", "as_tensor", "asarray"})
# Calls that run the model (or function) handed to them on the inputs handed to them: on CUDA arguments they
# compute on the GPU, so they warm it up (tracing executes the model once; so do exporters and summaries).
RUNS_ITS_ARGUMENTS = frozenset({"torch.jit.trace", "torch.jit.trace_module", "torch.onnx.export",
                                "torch.export.export", "torchinfo.summary", "torchsummary.summary", "thop.profile"})
# Constant fills: values fixed by the shape alone, so the GPU can make the same tensor itself (torch.<name>,
# or numpy's, wrapped by torch.tensor / from_numpy / ...).
TORCH_FILLS = frozenset({"zeros", "ones", "full", "empty"})
NUMPY_FILLS = frozenset({"numpy.zeros", "numpy.ones", "numpy.full", "numpy.empty", "numpy.eye"})
# NumPy's random draws, by the torch factory that draws the same on the GPU (np.random.uniform has none of one call).
NUMPY_RANDOM_FILLS = {"numpy.random.normal": "normal", "numpy.random.randn": "randn", "numpy.random.rand": "rand",
                      "numpy.random.random": "rand", "numpy.random.random_sample": "rand",
                      "numpy.random.standard_normal": "randn", "numpy.random.uniform": None,
                      "numpy.random.randint": "randint", "numpy.random.permutation": "randperm"}
FILL_WRAPPERS = frozenset({"tensor", "as_tensor", "asarray", "from_numpy", "Tensor", "FloatTensor", "DoubleTensor",
                           "LongTensor"})
# The legacy typed constructors: sizes (FloatTensor(64, 3)) make new data, a sequence (FloatTensor(state)) wraps it.
LEGACY_CONSTRUCTORS = frozenset({"Tensor", "FloatTensor", "DoubleTensor", "LongTensor", "IntTensor", "HalfTensor",
                                 "ByteTensor", "BoolTensor"})

DEVICE_CONSTRUCTORS = frozenset({"torch.device"})
LEGACY_CUDA_CONSTRUCTORS = frozenset(f"torch.cuda.{name}" for name in (
    "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "LongTensor", "IntTensor", "ShortTensor",
    "ByteTensor", "CharTensor", "BoolTensor"))
# (d2l.try_gpu(): Dive into Deep Learning's helper, the GPU when there is one -- the code of its exercises and
# of projects built on them)
CUDA_DEVICE_FUNCTIONS = frozenset({"torch.cuda.current_device", "d2l.torch.try_gpu", "d2l.try_gpu"})
# A project's helper that picks the device (utils.get_device("auto"), select_device(opt.device), N-BEATS's
# default_device(), the Jovian courses' get_default_device()): may be CUDA.
DEVICE_PICKER = re.compile(r"^_*((get|select|setup|set_up|pick|choose|resolve|init|auto|find)_?(default_|best_)?"
                           r"|default_|best_)(torch_)?device$")
# Devices of other accelerators' libraries (DirectML, XLA): not CUDA, so no CUDA cost is reported on them.
OTHER_DEVICE_FUNCTIONS = frozenset({"torch_directml.device", "torch_xla.device", "torch_xla.core.xla_model.xla_device",
                                    "torch_xla.runtime.xla_device"})
EVENT_CONSTRUCTORS = frozenset({
    "torch.cuda.Event", "torch.cuda.Stream", "torch.cuda.current_stream", "torch.cuda.default_stream",
    "torch.cuda.ExternalStream", "torch.Event", "torch.Stream",
})
CUDA_WORKER_CONSTRUCTORS = frozenset({"torch.cuda.amp.GradScaler", "torch.amp.GradScaler"})
# Optimizers (classes under these prefixes): over CUDA parameters, an object whose step() launches CUDA work -- not
# a tensor, whatever the parameters handed in. Learning-rate schedules made by a library's factory
# (transformers.get_linear_schedule_with_warmup(opt, ...)) hold numbers only.
OPTIMIZER_PREFIXES = ("torch.optim.", "transformers.AdamW", "transformers.Adafactor", "transformers.optimization.",
                      "bitsandbytes.optim.", "apex.optimizers.", "timm.optim.", "torch_optimizer.")
SCHEDULE_FACTORY = re.compile(r"^get_\w*schedule\w*$")
LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader",
                     # PyTorch Geometric's and MONAI's loaders are DataLoaders (subclasses, with num_workers and
                     # pin_memory)
                     "torch_geometric.loader.DataLoader", "torch_geometric.data.DataLoader",
                     "torch_geometric.loader.NeighborLoader", "torch_geometric.loader.LinkNeighborLoader",
                     "torch_geometric.loader.HGTLoader", "torch_geometric.loader.DataListLoader",
                     "monai.data.DataLoader", "monai.data.dataloader.DataLoader",
                     # DGL's GraphDataLoader (graph classification: batches of whole graphs collated on the host) and
                     # torchmeta's episode loaders subclass torch's too, and hand num_workers / pin_memory to it
                     "dgl.dataloading.GraphDataLoader", "dgl.dataloading.dataloader.GraphDataLoader",
                     "torchmeta.utils.data.BatchMetaDataLoader", "torchmeta.utils.data.MetaDataLoader",
                     # webdataset's WebLoader is torch's DataLoader with a pipeline's methods added
                     "webdataset.WebLoader", "webdataset.compat.WebLoader"})
# Frameworks with a DataLoader of their own that is not torch's
# (DGL's DataLoader samples subgraphs its own way, often on the GPU: its num_workers and pin_memory mean other
# things -- its GraphDataLoader is listed above)
DATASETS_OF_TENSORS = frozenset({"torch.utils.data.TensorDataset"})
# Calls that hand back parts of the arrays they are given, of the same dtype (a float64 X stays float64).
SPLITTING_CALLS = frozenset({"sklearn.model_selection.train_test_split", "numpy.split", "numpy.array_split"})
# w = nn.Parameter(t): a tensor (not a module), the tensor it wraps
MODULE_PARAMETERS = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
PASSTHROUGH_CALLS = MODULE_PARAMETERS | frozenset({
    "iter", "next", "list", "tuple", "sorted", "reversed", "tqdm", "tqdm.tqdm", "tqdm.auto.tqdm",
    "tqdm.notebook.tqdm", "torch.compile", "copy.deepcopy",
    "torch.autograd.Variable", "torch.autograd.variable.Variable",  # pre-0.4 code: a Variable is its tensor
    "einops.repeat", "einops.rearrange",  # the tensor they are handed, tiled or reshaped, where it was
})
# Methods of other libraries' objects that hand back float64 NumPy arrays (nibabel's image.get_fdata(), whose dtype
# argument defaults to float64)
F64_ARRAY_METHODS = frozenset({"get_fdata"})
PROGRESS_BARS = frozenset({"tqdm", "tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm"})  # tqdm(it) walks it

GRAD_OFF_CONTEXTS = frozenset({
    "torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "torch.autograd.inference_mode",
    "torch.autograd.grad_mode.no_grad", "torch.autograd.grad_mode.inference_mode",
})
GRAD_SWITCHES = frozenset({"torch.set_grad_enabled", "torch.autograd.set_grad_enabled"})

# Calls that join tensors into a new one (a copy on the device the pieces are on).
JOINS = frozenset({"torch.cat", "torch.concat", "torch.concatenate", "torch.stack", "torch.hstack", "torch.vstack"})
# Linear algebra that checks its result for errors on the host: "When inputs are on a CUDA device, this function
# synchronizes that device with the CPU" (torch.linalg docs; the *_ex variants do not).
SYNCING_LINALG = frozenset({f"torch.linalg.{name}" for name in (
    "cholesky", "inv", "solve", "eig", "eigvals", "eigh", "eigvalsh", "svd", "svdvals", "lstsq", "matrix_rank", "pinv")}
    | {"torch.inverse", "torch.cholesky", "torch.svd", "torch.pinverse"})
# Methods on a CUDA tensor that wait for the GPU and copy to the host.
HOST_SYNC_METHODS = frozenset({"item", "tolist", "cpu", "numpy", "nonzero"})
# Builtins that turn a tensor into a Python value (or text): a host sync for a CUDA tensor.
# (min / max compare their arguments with `<`, then ask Python for the comparison's truth: a read of each tensor)
SYNC_BUILTINS = frozenset({"float", "int", "bool", "print", "str", "repr", "complex", "format", "min", "max"})
# Loggers that turn the tensors they are given into Python numbers or text (tensorboard's make_np calls
# .cpu().numpy(); wandb and tqdm format or .item() them): a host read when a tensor is on CUDA.
LOGGING_METHODS = frozenset({"add_scalar", "add_scalars", "add_histogram", "set_postfix", "set_description",
                             "log_metric", "log_metrics",
                             # tensorboard's image, video, embedding and curve writers make_np() their tensors too
                             "add_image", "add_images", "add_video", "add_embedding", "add_pr_curve", "add_mesh"})
LOGGING_FUNCTIONS = frozenset({"wandb.log", "wandb.run.log", "swanlab.log", "mlflow.log_metric", "mlflow.log_metrics"})
# Python's logging: a record handed a tensor formats it (str(t) copies a CUDA tensor back) when its level is on.
PY_LOGGING_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "critical", "log"})
PY_LOGGER_HOLDER = re.compile(r"^(logger|logging|log|_logger|LOGGER|LOG)$")
# Meters whose update() turns tensors into numbers (torchvision's reference MetricLogger / SmoothedValue: v.item()).
METER_HOLDER = re.compile(r"logger|meter", re.IGNORECASE)


# Tokenizers and processors whose decode() turns token ids into text: a CUDA tensor of ids is copied back first.
DECODERS = frozenset({"decode", "batch_decode"})
DECODER_HOLDER = re.compile(r"tokeni[sz]er|processor|^tok$|vocab", re.IGNORECASE)


def reads_what_it_is_handed(func: ast.AST) -> bool:
    """writer.add_scalar(...), pbar.set_postfix(...), metric_logger.update(loss=loss): a logger of the values given;
    tokenizer.batch_decode(ids): text made from the ids given. Either turns a CUDA tensor into host values."""
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr in DECODERS:
        return bool(DECODER_HOLDER.search(last_identifier(func.value)))
    if func.attr in PY_LOGGING_METHODS and PY_LOGGER_HOLDER.search(last_identifier(func.value)):
        return True  # logger.info(loss): the record formats str(loss) when the level is on
    return func.attr in LOGGING_METHODS or func.attr == "update" and bool(METER_HOLDER.search(ast.unparse(func.value)))


# Modules whose functions turn a tensor argument into a Python number: math.isfinite(loss) reads it.
HOST_VALUE_MODULES = ("math.", "random.", "statistics.")  # (random.choices(acts, weights=probs): read back)
# torchvision's converters to a PIL image copy the tensor to the host first (to_pil_image calls .cpu() / .numpy()).
PIL_CONVERTERS = frozenset({"torchvision.transforms.functional.to_pil_image", "torchvision.transforms.ToPILImage",
                            "torchvision.transforms.transforms.ToPILImage", "torchvision.transforms.v2.ToPILImage",
                            "torchvision.transforms.v2.functional.to_pil_image"})
# Questions about a tensor's shape and type: answered from its metadata, they neither use nor move its data.
SHAPE_QUERY_METHODS = frozenset({"size", "dim", "ndimension", "numel", "nelement", "element_size",
                                 "is_floating_point", "is_complex"})
# torch's functions that answer a question about an object or the settings with a Python value: no data read.
METADATA_FUNCTIONS = frozenset(f"torch.{name}" for name in (
    "is_tensor", "is_storage", "is_floating_point", "is_complex", "numel", "typename", "is_grad_enabled",
    "is_inference_mode_enabled", "get_default_dtype", "is_autocast_enabled", "result_type", "can_cast"))
NON_TENSOR_METHODS = SHAPE_QUERY_METHODS | frozenset({
    "item", "tolist", "data_ptr", "stride", "is_contiguous", "get_device", "storage_offset", "backward",
    "register_hook", "retain_grad", "untyped_storage", "record_stream", "dim_order",
})
# torch.nn.functional's elementwise functions (the output has the input's shape) and its losses (a reduction of
# their two inputs): as small as what they are given.
FUNCTIONAL_ELEMENTWISE = frozenset({
    "relu", "relu6", "sigmoid", "tanh", "softplus", "gelu", "elu", "selu", "celu", "leaky_relu", "silu", "mish",
    "hardtanh", "hardsigmoid", "hardswish", "softmax", "log_softmax", "softsign", "logsigmoid", "dropout",
    "normalize", "threshold",
})
FUNCTIONAL_LOSSES = frozenset({
    "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "cross_entropy", "nll_loss", "kl_div",
})
# Tensor methods that return a view of the same memory: no kernel runs (reshape, flatten, contiguous may copy).
VIEW_METHODS = frozenset({
    "view", "view_as", "squeeze", "unsqueeze", "t", "permute", "transpose", "expand", "expand_as", "narrow",
    "select", "unflatten", "movedim", "unbind", "split", "chunk", "detach", "requires_grad_",
})
TENSOR_META_ATTRS = frozenset({
    "shape", "dtype", "device", "ndim", "is_cuda", "requires_grad", "layout", "is_leaf", "names",
    "is_sparse", "is_quantized", "itemsize", "nbytes", "grad_fn",
    # a PyTorch Geometric / DGL batch moved to the GPU keeps its counts as Python ints
    "num_nodes", "num_edges", "num_graphs", "num_node_features", "num_edge_features",
})
# Module methods that return the module itself.
MODEL_SELF_METHODS = frozenset({"eval", "train", "half", "float", "bfloat16", "double", "requires_grad_",
                                "share_memory", "to_empty", "cpu", "cuda", "to", "type"})
# Module methods that launch no GPU work.
MODEL_QUIET_METHODS = frozenset({
    "parameters", "named_parameters", "buffers", "named_buffers", "modules", "named_modules", "children",
    "named_children", "state_dict", "load_state_dict", "zero_grad", "register_forward_hook",
    "register_forward_pre_hook", "register_full_backward_hook", "register_buffer", "eval", "train",
    "requires_grad_", "add_module", "get_submodule", "extra_repr",
})
# A model's methods that run it on the GPU and hand back host data: whisper's model.transcribe(audio) returns a dict
# of text (it has read every token back to decode it).
MODEL_HOST_RESULT_METHODS = frozenset({"transcribe"})
# A detector's results as tables (yolov5's results.pandas()): host data, read back inside the library, no GPU work.
HOST_TABLE_METHODS = frozenset({"pandas", "to_pandas"})
# A metric object's name (dice_metric, val_acc_metric, iou_meter): what its aggregate()/compute() returns lives where
# the tensors it was handed do.
METRIC_NAME = re.compile(r"metric|meter|dice|iou|accuracy", re.IGNORECASE)
# A Python list's own methods: they move references on the host, whatever the list holds.
_LIST_METHODS = frozenset({"append", "extend", "insert", "remove", "clear", "reverse", "count", "index"})


def host_side_method(attr: str, on_a_list: bool) -> bool:
    """A method that launches nothing whatever its receiver holds: a list's own (``accs.append(acc)`` of CUDA
    tensors grows a list on the host), or a detector's results turned into host tables."""
    return attr in HOST_TABLE_METHODS or on_a_list and attr in _LIST_METHODS
# A model's own set-up and bookkeeping methods (nanoGPT's configure_optimizers, get_num_params, crop_block_size,
# estimate_mfu; Lightning's configure_optimizers): called with configuration values, not CUDA tensors, they
# compute nothing on the GPU.
MODEL_SETUP_METHOD = re.compile(r"^_*(configure|get_|set_|num_|count_|crop|freeze|unfreeze|setup|estimate_|print|"
                                r"summary|save|load|log)", re.IGNORECASE)
WORKER_QUIET_METHODS = frozenset({"zero_grad", "state_dict", "load_state_dict", "add_param_group",
                                  "get_scale", "is_enabled"})
EVENT_QUIET_METHODS = frozenset({"record", "elapsed_time", "query", "wait_event", "wait_stream", "wait"})

# more of numpy's continuous distributions: all draw float64
_MORE_F64_DISTRIBUTIONS = ("multivariate_normal", "lognormal", "laplace", "logistic", "gumbel", "standard_exponential",
                           "standard_gamma", "standard_cauchy", "standard_t", "chisquare", "dirichlet", "triangular",
                           "vonmises", "wald", "weibull", "rayleigh", "pareto", "power", "f")
NUMPY_F64_FACTORIES = frozenset({
    "numpy.random.rand", "numpy.random.randn", "numpy.random.random", "numpy.random.random_sample",
    "numpy.random.uniform", "numpy.random.normal", "numpy.random.standard_normal", "numpy.random.ranf",
    "numpy.random.sample", "numpy.random.exponential", "numpy.random.beta", "numpy.random.gamma",
    *(f"numpy.random.{name}" for name in _MORE_F64_DISTRIBUTIONS),
    "numpy.fft.fftfreq", "numpy.fft.rfftfreq",  # (sample frequencies: float64 whatever the input)
})
NUMPY_DEFAULT_F64 = frozenset({
    "numpy.zeros", "numpy.ones", "numpy.empty", "numpy.linspace", "numpy.eye", "numpy.identity",
    "numpy.loadtxt", "numpy.genfromtxt", "numpy.logspace",
})
# numpy functions that call the method of the same name on an object that has one (numpy's _wrapfunc): handed
# a torch tensor, np.squeeze(t) is t.squeeze(), a tensor on t's device (no copy to the host).
NUMPY_METHOD_DISPATCH = frozenset(f"numpy.{name}" for name in (
    "squeeze", "transpose", "reshape", "swapaxes", "argmax", "argmin", "argsort", "nonzero", "repeat", "take"))
NUMPY_RNG_CONSTRUCTORS = frozenset({"numpy.random.default_rng", "numpy.random.RandomState",
                                    "numpy.random.Generator"})
RNG_F64_METHODS = frozenset({"random", "standard_normal", "normal", "uniform", "exponential", "rand", "randn",
                             "random_sample", "beta", "gamma", *_MORE_F64_DISTRIBUTIONS})

# complex128 counts as float64: each element is a pair of float64, and its arithmetic runs on the float64 units
F64_DTYPES = frozenset({"torch.float64", "torch.double", "numpy.float64", "numpy.double", "numpy.float_",
                        "numpy.longdouble", "torch.complex128", "torch.cdouble", "numpy.complex128", "numpy.cdouble",
                        "numpy.complex_", "numpy.clongdouble"})
F64_DTYPE_STRINGS = frozenset({"float64", "double", "f8", "<f8", "float", "complex128", "cdouble", "c16", "<c16"})
OTHER_DTYPE_PREFIXES = ("torch.float", "torch.half", "torch.bfloat", "torch.int", "torch.uint", "torch.long",
                        "torch.bool", "torch.short", "torch.complex", "numpy.float", "numpy.int", "numpy.uint",
                        "numpy.bool", "numpy.half", "numpy.single")

MODEL_CONSTRUCTOR_PREFIXES = ("torchvision.models.", "timm.create_model", "torch.hub.load", "ultralytics.YOLO",
                              "ultralytics.RTDETR")
# Libraries that take arrays or log values but do not compute on CUDA tensors (they need host data).
NOT_ON_CUDA = frozenset(sys.stdlib_module_names) | {
    "numpy", "wandb", "swanlab", "mlflow", "tqdm", "matplotlib", "sklearn", "scipy", "pandas", "PIL", "cv2", "seaborn",
    "tensorboard", "tensorboardX", "neptune", "comet_ml", "imageio", "skimage", "h5py", "yaml"}
# Predictors of libraries that place, run (in inference mode) and read back their results themselves: calling one
# hands back host-side result objects, so the file's code around it launches no CUDA work of its own.
PREDICTOR_LIBRARIES = re.compile(r"ultralytics\.|transformers\.pipeline|diffusers\.\w*Pipeline")  # (not a UNet)
# A TorchScript archive loads as a module (on the device of map_location, else where it was saved).
SCRIPTED_MODEL_LOADERS = frozenset({"torch.jit.load"})
# Compilers that take a module (first argument) and return a module: the example inputs do not make it a tensor.
MODEL_COMPILERS = frozenset({"torch.jit.script", "torch.jit.trace", "torch.jit.trace_module", "torch.jit.freeze",
                             "torch.jit.optimize_for_inference"})
NOT_A_MODEL = re.compile(r"Tokenizer|Processor|Config|FeatureExtractor|Pipeline|Dataset|Loader")
# Names people give to models; used only when nothing else says what `.cuda()` was called on.
MODEL_NAME_HINT = re.compile(
    r"model|net|encoder|decoder|module|layer|backbone|head|classifier|criterion|loss_?f|policy|actor|"
    r"critic|generator|discriminator|unet|vae|transformer|bert|gpt|resnet|vit|mlp|cnn|rnn|lstm|gru|gnn|gcn|"
    r"^(gen|dis|disc)$|^(?-i:[GD])$",  # a GAN's two networks by their short names: gen(z), dis(x), G(z), D(x)
    re.IGNORECASE)
# Names people give to RL environments: env, env1, eval_env, envs, environment.
ENVIRONMENT_NAME = re.compile(r"(^|_)envs?\d*($|_)|environment", re.IGNORECASE)
# A callable the file does not define, named like a model or a loss (`loss(logits, y)` with `loss` a parameter,
# `self.criterion(out, y)`): fed CUDA tensors, it returns a CUDA tensor.
# ... or a metric: accuracy(logits, labels) of a star import returns tensors on its inputs' device (the ImageNet
# example's helper; one that returned Python floats could not be read with .item() as such code does)
COMPUTES_ON_ITS_INPUTS = re.compile(
    MODEL_NAME_HINT.pattern + r"|loss|objective|accuracy|metric|dice|iou|psnr|ssim|crit", re.IGNORECASE)
# A callable named for a transform or an augmentation (`_transforms`, `augment`, `train_aug`): what it hands back is
# its input transformed, on the input's device.
TRANSFORM_NAME = re.compile(r"^_*(transforms?|augment\w*|aug|preprocess|\w+_(transforms?|aug|augment))$",
                            re.IGNORECASE)
# Decoding a network's output into text (CTC greedy / beam search): the result is strings on the host, not tensors.
TEXT_DECODING = re.compile(r"(greedy|beam|ctc|viterbi)_?(search_?)?decod"
                           r"|^decode_(pred|output|text|label|seq|string|word|char)", re.IGNORECASE)
# (decode_predictions(outputs, idx_to_char): the network's output read into strings)
# A helper the file does not show, by its name, that turns what it is handed into host data (tensor2array(pred),
# to_numpy(x)): handed a CUDA tensor it copies it back, so it waits for the GPU -- a clock read after it has waited.
TO_HOST = re.compile(r"^_*(tensor_?(2|to)_?(array|arr|np|numpy|img|image|im|list)|to_(numpy|np|array|list))$",
                     re.IGNORECASE)
# A helper the file does not show, by its name, that writes what it is handed out (a file, a figure): handed a
# CUDA tensor it must copy it to the host first, so it waits for the GPU (not a per-step read of a value, though).
WRITES_OUT = re.compile(r"^_*(save|write|dump|export|store|imsave|imwrite|plot|show|draw|visuali[sz]e|render)",
                        re.IGNORECASE)
# A helper of the user's project, by its name, that puts what it is handed on the GPU: the pre-0.4 idiom
# `def to_var(x): return Variable(x.cuda())`, `to_cuda(batch)`, `to_gpu(model)`, DGL's JTNN `cuda(model)` (its result
# is on the GPU); also as a method of a helper object: `device.data_to_device(batch)` (a multi-GPU wrapper's).
MOVES_TO_GPU = re.compile(r"^_*(to_var|to_cuda|to_gpu|cuda_var|var_cuda|move_to_(cuda|gpu)|data_to_device|cuda|gpu)"
                          r"(_if_available)?$", re.IGNORECASE)
# A helper, by its name, that fetches or places data (or builds a model) on the device it is handed.
DATA_ON_DEVICE_HINT = re.compile(r"^_*(get|load|fetch|next|sample|prepare|make|build|create|init|move|send|read)"
                                 r"|batch|to_device|to_cuda|to_gpu|model", re.IGNORECASE)
# ... but not the objects that make data later (create_loader(dataset, device=device) returns a loader).
# (nor a report about the device: get_gpu_usage(device) returns text or numbers, not tensors placed there)
NOT_DATA_HINT = re.compile(r"loader|iter|dataset|sampler|optim|sched|scaler|logger|writer|usage|stats|status|info",
                           re.IGNORECASE)
# What an unknown name most likely holds, by its name alone (a parameter nobody in the file passes, a name a
# star import brings): `device` is the accelerator when there is one; `x_gpu` / `cuda_tensor` are CUDA tensors.
DEVICE_NAME_HINT = frozenset({"device", "DEVICE", "Device", "dev", "DEV", "cuda_device", "gpu_device", "torch_device"})


def names_a_device(name: str) -> bool:
    """``device``, ``cuda_device``, ``resolved_device``, ``train_device``, ``torchDevice``: a name for a device (not
    ``cpu_device``)."""
    lowered = name.lower()
    return name in DEVICE_NAME_HINT or (lowered.endswith("_device") or name.endswith("Device")) \
        and not lowered.startswith("cpu") \
        or lowered in _GPU_INDEX_NAMES


# A GPU's index by its usual names (DDP's `x.to(self.gpu_id)`, `model.cuda(local_rank)`): a CUDA device.
_GPU_INDEX_NAMES = frozenset({"gpu_id", "gpu_idx", "gpu_index", "local_rank", "device_id", "cuda_id"})
# Objects that hold a configured device (`args.device`, `run_context.device`, `trainer.device`, a handed-in
# `model.device`: where it runs), as opposed to a tensor whose device is wherever it is (`idx.device` of a forward's
# input: unknown, not a guess of CUDA).
DEVICE_HOLDER = re.compile(r"^(args|opts?|h?params|hps?)$|conf|cfg|setting|option|const|context|ctx|trainer|runner|"
                           r"accelerator|fabric|engine|env|setup|dataset|^model$", re.IGNORECASE)
CUDA_TENSOR_NAME_HINT = re.compile(
    r"^(?!(use|no|is|has|enable|disable|num|n|with|on|run|cpu|allow|force)_)[A-Za-z]\w*_(cuda|gpu)$"
    r"|^(cuda|gpu)_(tensor|tensors|array|data|input|inputs|x|y|batch)$")
# A method of an object the file does not define that, by its name, runs a model on what it is given:
# `self._extract_features(imgs)`, `engine.forward(x)`, `self.encode(batch)`.
# A model method named for raw inputs (model.infer_image(img), model.predict_file(path)): a library's own API that
# preprocesses, runs its forward (under no_grad) and hands back host data -- when it is handed no tensor.
# Signal and image transforms: modules with buffers (windows, filter banks) and no parameter
TRANSFORM_MODULES = ("torchaudio.transforms.", "torchvision.transforms.")
RAW_INPUT_METHOD = re.compile(r"image|img|frame|text|sentence|file|path|video|audio|wav|utterance|speech", re.IGNORECASE)
COMPUTE_METHOD_HINT = re.compile(r"^_*(forward|extract_feat|encode|embed|predict|infer|run_model|compute_loss"
                                 r"|matmul|mm$|bmm$|conv|gemm|attention|softmax|layernorm|layer_norm|linear$"
                                 r"|gather$|gather_for_metrics$|all_gather$|reduce$|all_reduce$"
                                 r"|act$|(select|get|choose|sample|take|compute)_actions?|get_value|evaluate_actions?"
                                 r"|inverse$|i?stft$|transform$)")  # (self.stft.inverse(spec): a signal transform)
# (a custom CUDA extension's op, ext.matmul(a, b) of torch.utils.cpp_extension.load_inline; accelerate's and
# Lightning's accelerator.gather(loss) / reduce(...): collectives hand back tensors on the device of their input)
# An RL policy's or agent's act / select_action / get_value handed CUDA observations: its action and value come back
# on the policy's device (policy.act(obs.to(device), ...) of a policy the file receives).
# A model the snippet uses but never makes, imports or receives (lines quoted from a training script): the
# program's model, on the accelerator like the snippet's `device`.
FREE_MODEL_NAME = re.compile(r"^(\w+_)?(model|net|network)$", re.IGNORECASE)
MODEL_BASE_HINT = re.compile(r"Module$|Model$|Net$|Layer$|^Sequential$|^ModuleList$|^ModuleDict$")
