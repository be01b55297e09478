"""``torch.distributed`` on MPI (through ``mpi4py``): the default process group, groups, and the
tensor collectives with PyTorch's names, arguments, semantics and error messages.

Transport. MPI is the only transport: ``init_process_group(backend="mpi")`` takes the rank and
the world size from ``MPI.COMM_WORLD`` (processes started by ``mpiexec``). A tensor goes to MPI
as its own memory -- a contiguous CPU tensor's ``.detach().numpy()`` is a view of the tensor's
storage, handed to mpi4py through the buffer protocol -- so no collective copies its input or
output (``all_gather``, whose outputs are separate tensors, gathers into one flat buffer and copies
out as PyTorch's MPI backend does). mpi4py releases the GIL for the duration of every MPI call.

``backend="gloo"`` is accepted with a warning and runs on MPI too (the CPU collectives a PyTorch
user asks for by that name); ``get_backend()`` then says ``"mpi"``. ``backend="nccl"`` raises: there
is no NCCL backend yet.

Beyond PyTorch: an uncaught exception on one rank aborts the whole job (``MPI_Abort``) after the
traceback is printed, so the other ranks do not wait forever inside a collective.
"""

import enum
import os
import sys
import time
import warnings
from datetime import timedelta

import numpy as np

__all__ = [
    "Backend", "GroupMember", "ProcessGroup", "ReduceOp", "Work", "all_gather", "all_gather_into_tensor",
    "all_gather_single", "all_reduce", "barrier", "broadcast", "destroy_process_group", "get_backend",
    "get_global_rank", "get_group_rank", "get_process_group_ranks", "get_rank", "get_world_size", "group",
    "init_process_group", "irecv", "is_available", "is_gloo_available", "is_initialized", "is_mpi_available",
    "is_nccl_available", "is_torchelastic_launched", "isend", "new_group", "recv", "reduce_scatter_single",
    "reduce_scatter_tensor", "send",
]

_MPI_EXTRA_HINT = ('ferrograd runs torch.distributed on MPI through mpi4py: install the extra with '
                   'pip install "ferrograd[mpi]" (it brings mpi4py and the mpich MPI library)')

default_pg_timeout = timedelta(minutes=30)


def _torch():
    import ferrograd

    return ferrograd


def _mpi():
    """The ``mpi4py.MPI`` module (initialises MPI on first use), or a RuntimeError naming the extra."""
    try:
        from mpi4py import MPI
    except ImportError as e:  # mpi4py missing, or its MPI library missing
        raise RuntimeError("Distributed package doesn't have MPI built in. " + _MPI_EXTRA_HINT
                           + f" ({type(e).__name__}: {e})") from None
    return MPI


def is_available():
    """True: the package is always there; whether a backend can start is ``is_mpi_available()``."""
    return True


def is_mpi_available():
    import importlib.util

    return importlib.util.find_spec("mpi4py") is not None


def is_gloo_available():
    """False: there is no Gloo here (``backend="gloo"`` runs on MPI, with a warning)."""
    return False


def is_nccl_available():
    return False


def is_ucc_available():
    return False


def is_xccl_available():
    return False


def is_torchelastic_launched():
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


# ----------------------------------------------------------------------------- Backend, ReduceOp

class Backend(str):
    """The backend names, as ``torch.distributed.Backend``: a lower-case string."""

    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    UCC = "ucc"
    MPI = "mpi"
    XCCL = "xccl"
    backend_list = [UNDEFINED, GLOO, NCCL, XCCL, UCC, MPI]
    default_device_backend_map = {"cpu": GLOO, "cuda": NCCL}

    def __new__(cls, name):
        if not isinstance(name, str):
            raise ValueError(f"Backend constructor parameter must be string-ish, but got: {type(name)}")
        value = getattr(Backend, name.upper(), Backend.UNDEFINED)
        if value == Backend.UNDEFINED:
            value = name.lower()
        return super().__new__(cls, value)


class _RedOpType(enum.Enum):
    SUM = 0
    AVG = 1
    PRODUCT = 2
    MIN = 3
    MAX = 4
    BAND = 5
    BOR = 6
    BXOR = 7

    def __int__(self):
        return self.value


_RedOpType.__name__ = _RedOpType.__qualname__ = "RedOpType"


class ReduceOp:
    """``torch.distributed.ReduceOp``: ``ReduceOp.SUM`` etc. are ``RedOpType`` members
    (``<RedOpType.SUM: 0>``); ``ReduceOp(ReduceOp.SUM)`` wraps one and compares equal to it."""

    RedOpType = _RedOpType
    SUM = _RedOpType.SUM
    AVG = _RedOpType.AVG
    PRODUCT = _RedOpType.PRODUCT
    MIN = _RedOpType.MIN
    MAX = _RedOpType.MAX
    BAND = _RedOpType.BAND
    BOR = _RedOpType.BOR
    BXOR = _RedOpType.BXOR

    def __init__(self, op=_RedOpType.SUM):
        if isinstance(op, ReduceOp):
            op = op.op
        if not isinstance(op, _RedOpType):
            raise TypeError(f"ReduceOp expects a RedOpType, got {type(op).__name__}")
        self.op = op

    def __eq__(self, other):
        other = other.op if isinstance(other, ReduceOp) else other
        return self.op is other

    def __hash__(self):
        return hash(self.op)

    def __repr__(self):
        return repr(self.op)


def _red_op(op):
    if isinstance(op, ReduceOp):
        return op.op
    if isinstance(op, _RedOpType):
        return op
    raise TypeError(f"Expected op to be a torch.distributed.ReduceOp, got {type(op).__name__}")


# ----------------------------------------------------------------------------- process groups

class ProcessGroup:
    """A communicator: the default group (``MPI.COMM_WORLD``) or one made by ``new_group``."""

    def __init__(self, comm, backend, ranks, timeout, name):
        self._comm = comm
        self._backend = backend
        self._ranks = list(ranks)          # global ranks of the members, in group-rank order
        self._timeout = timeout
        self.group_name = name

    def rank(self):
        return self._comm.Get_rank()

    def size(self):
        return self._comm.Get_size()

    def name(self):
        return self._backend.upper()

    def __repr__(self):
        return f"<ferrograd.distributed.ProcessGroup {self.group_name} ({self._backend}, size {self.size()})>"


class _NonGroupMember:
    def __repr__(self):
        return "<non-group member>"


class GroupMember:
    WORLD = None
    NON_GROUP_MEMBER = _NonGroupMember()


class _GroupMeta(type):
    @property
    def WORLD(cls):
        return GroupMember.WORLD


class group(metaclass=_GroupMeta):
    """``dist.group.WORLD``: the default process group (None before ``init_process_group``)."""


class _World:
    def __init__(self):
        self.pg_group_ranks = {}     # group -> {global rank: group rank}
        self.group_count = 0
        self.prev_excepthook = None


_world = _World()


def is_initialized():
    return GroupMember.WORLD is not None


def _get_default_group():
    if not is_initialized():
        raise ValueError("Default process group has not been initialized, "
                         "please make sure to call init_process_group.")
    return GroupMember.WORLD


def _group_or_default_group(group=None):
    if group is None or group is GroupMember.WORLD:
        group = _get_default_group()
    return group


def _rank_not_in_group(group):
    if group is None:
        return False
    return group is GroupMember.NON_GROUP_MEMBER


def _warn_not_in_group(op_name):
    global_rank = -1 if GroupMember.WORLD is None else GroupMember.WORLD.rank()
    warnings.warn(f"Running {op_name} on global rank {global_rank} which does not belong to the given group.",
                  stacklevel=3)


def get_group_rank(group, global_rank):
    if group is GroupMember.WORLD:
        return global_rank
    if group not in _world.pg_group_ranks:
        raise ValueError(f"Group {group} is not registered, please create group with "
                         "torch.distributed.new_group API")
    ranks = _world.pg_group_ranks[group]
    if global_rank not in ranks:
        raise ValueError(f"Global rank {global_rank} is not part of group {group}")
    return ranks[global_rank]


def get_global_rank(group, group_rank):
    if group is GroupMember.WORLD:
        return group_rank
    if group not in _world.pg_group_ranks:
        raise ValueError(f"Group {group} is not registered, please create group with "
                         "torch.distributed.new_group API")
    for rank, grp_rank in _world.pg_group_ranks[group].items():
        if grp_rank == group_rank:
            return rank
    raise ValueError(f"Group rank {group_rank} is not part of group {group}")


def get_process_group_ranks(group):
    group = _group_or_default_group(group)
    return list(group._ranks)


def _canonicalize_group_rank(group, global_rank=None, group_rank=None):
    if group_rank is not None:
        if global_rank is not None:
            raise ValueError("Can't specify both group_rank and global_rank")
    else:
        if global_rank is None:
            raise ValueError("Must specify global_rank or group_rank")
        group_rank = get_group_rank(group, global_rank)
    return group_rank


def _check_not_self_rank(group, rank, rank_type):
    if group.rank() == rank:
        raise ValueError(f"Invalid {rank_type} rank: {rank_type} rank should not be the same as "
                         "the rank of the current process.")


def _check_valid_timeout(timeout):
    if not isinstance(timeout, timedelta):
        raise TypeError(f"Expected timeout argument to be of type datetime.timedelta, got {timeout}")


def _env_int(name):
    value = os.environ.get(name)
    if value is None or value == "":
        return None
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"Error initializing torch.distributed using env:// rendezvous: environment "
                         f"variable {name} has invalid value {value!r}") from None


def _abort_on_uncaught_exception(exc_type, exc, tb):
    """sys.excepthook while a group of more than one process is up: print the traceback, then
    MPI_Abort, which makes mpiexec end every rank instead of leaving them in a collective."""
    prev = _world.prev_excepthook or sys.__excepthook__
    prev(exc_type, exc, tb)
    pg = GroupMember.WORLD
    if pg is not None and pg.size() > 1 and not issubclass(exc_type, KeyboardInterrupt):
        try:
            sys.stderr.write(f"[rank {pg.rank()}] uncaught {exc_type.__name__}: aborting all "
                             f"{pg.size()} ranks (MPI_Abort)\n")
            sys.stderr.flush()
            time.sleep(0.25)   # let mpiexec forward the traceback before it tears the job down
        finally:
            pg._comm.Abort(1)


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None):
    """Start the default process group on MPI.

    ``backend``: ``"mpi"`` (or None); ``"gloo"`` runs on MPI with a warning; ``"nccl"`` raises.
    The rank and the world size come from MPI (``mpiexec -n N``); ``RANK``/``WORLD_SIZE`` in the
    environment (a torchrun-style launcher) are checked against them, since MPI is the only way the
    processes can reach one another here."""
    if GroupMember.WORLD is not None:
        raise ValueError("trying to initialize the default process group twice!")
    if store is not None and init_method is not None:
        raise AssertionError("Cannot specify both init_method and store.")
    name = "undefined" if backend is None else backend
    backend = Backend(name)
    if timeout is None:
        timeout = default_pg_timeout
    _check_valid_timeout(timeout)
    if backend == Backend.NCCL:
        raise RuntimeError("Distributed package doesn't have NCCL built in: ferrograd has no NCCL backend "
                           "yet (CUDA tensors cannot be communicated). Use backend=\"mpi\" with CPU tensors.")
    if backend not in (Backend.MPI, Backend.GLOO, Backend.UNDEFINED):
        raise RuntimeError(f"Invalid backend: '{name}'. ferrograd.distributed supports 'mpi' "
                           "(and 'gloo', which runs on MPI)")
    if backend == Backend.GLOO:
        warnings.warn("ferrograd has no Gloo: backend='gloo' runs on MPI (mpi4py); launch the processes "
                      "with mpiexec", UserWarning, stacklevel=2)
    if world_size != -1 or rank != -1:
        warnings.warn(f"For MPI backend, world_size ({world_size}) and rank ({rank}) are ignored since they "
                      "are assigned by the MPI runtime.", UserWarning, stacklevel=2)
    if device_id is not None:
        dev = _torch().device(device_id) if not isinstance(device_id, int) else None
        if dev is None or dev.type != "cpu":
            raise ValueError(f"device_id {device_id} does not match the current compilation's accelerator "
                             "support: None. Please use a different compiled version that supports your accelerator.")
    MPI = _mpi()
    comm = MPI.COMM_WORLD
    mpi_rank, mpi_size = comm.Get_rank(), comm.Get_size()
    env_size, env_rank = _env_int("WORLD_SIZE"), _env_int("RANK")
    if env_size is not None and env_size != mpi_size:
        raise RuntimeError(
            f"WORLD_SIZE={env_size} in the environment but MPI started {mpi_size} process(es): ferrograd's "
            "distributed backend is MPI, so the processes must be started by an MPI launcher "
            f"(mpiexec -n {env_size} python ...), not by torchrun or a hand-made RANK/WORLD_SIZE launch")
    if env_rank is not None and env_size is not None and env_rank != mpi_rank:
        raise RuntimeError(f"RANK={env_rank} in the environment but MPI gave this process rank {mpi_rank}")
    pg = ProcessGroup(comm, Backend.MPI, range(mpi_size), timeout, "0")
    GroupMember.WORLD = pg
    _world.pg_group_ranks[pg] = {r: r for r in range(mpi_size)}
    _world.group_count = 1
    if mpi_size > 1 and sys.excepthook is not _abort_on_uncaught_exception:
        _world.prev_excepthook = sys.excepthook
        sys.excepthook = _abort_on_uncaught_exception


def destroy_process_group(group=None):
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    pg = GroupMember.WORLD if group is None else group
    if pg is None:
        raise AssertionError("Process group cannot be None")
    if pg not in _world.pg_group_ranks:
        raise ValueError("Invalid process group specified")
    if group is None or group is GroupMember.WORLD:
        for g in list(_world.pg_group_ranks):
            if g is not GroupMember.WORLD:
                g._comm.Free()
        _world.pg_group_ranks.clear()
        GroupMember.WORLD = None
        if sys.excepthook is _abort_on_uncaught_exception:
            sys.excepthook = _world.prev_excepthook or sys.__excepthook__
        _world.prev_excepthook = None
    else:
        del _world.pg_group_ranks[pg]
        pg._comm.Free()


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False,
              group_desc=None, device_id=None):
    """A group of the given global ranks (all of them when None). Every rank of the default group
    must call it, as in PyTorch; a rank outside ``ranks`` gets ``GroupMember.NON_GROUP_MEMBER``."""
    default_pg = _get_default_group()
    world = default_pg.size()
    if ranks is None:
        ranks = list(range(world))
    ranks = sorted(int(r) for r in ranks)
    for r in ranks:
        if r < 0 or r >= world:
            raise ValueError("The new group's rank should be within the world_size set by init_process_group")
    if timeout is None:
        timeout = default_pg._timeout
    _check_valid_timeout(timeout)
    MPI = _mpi()
    mpi_group = default_pg._comm.Get_group().Incl(ranks)
    comm = default_pg._comm.Create(mpi_group)
    mpi_group.Free()
    _world.group_count += 1
    if comm == MPI.COMM_NULL:
        return GroupMember.NON_GROUP_MEMBER
    pg = ProcessGroup(comm, Backend.MPI, ranks, timeout, str(_world.group_count - 1))
    _world.pg_group_ranks[pg] = {g: i for i, g in enumerate(ranks)}
    return pg


def get_backend(group=None):
    pg = _group_or_default_group(group)
    if _rank_not_in_group(pg):
        raise ValueError("Invalid process group specified")
    return Backend(pg._backend)


def get_rank(group=None):
    if _rank_not_in_group(group):
        return -1
    default_pg = _get_default_group()
    if group is None or group is GroupMember.WORLD:
        return default_pg.rank()
    return get_group_rank(group, default_pg.rank())


def get_world_size(group=None):
    if _rank_not_in_group(group):
        return -1
    return _group_or_default_group(group).size()


# ----------------------------------------------------------------------------- tensors as MPI buffers

def _check_single_tensor(param, param_name):
    if not isinstance(param, _torch().Tensor):
        raise TypeError(f"""Invalid function argument. Expected parameter `{param_name}` of type torch.Tensor
             but got {type(param)} instead.""")


def _check_tensor_list(param, param_name):
    T = _torch().Tensor
    if not isinstance(param, list):
        raise TypeError(f"""Invalid function argument. Expected parameter `{param_name}` of type List[torch.Tensor]
             but got {type(param)} instead.""")
    if not all(isinstance(p, T) for p in param):
        raise TypeError(f"""Invalid function argument. Expected parameter `{param_name}` of type List[torch.Tensor]
             but got {type(param)} with elements of type {[type(p) for p in param]}.""")


def _buffer(tensor):
    """The tensor's own memory as a 1-D NumPy view (no copy): what MPI reads and writes."""
    if tensor.device.type != "cpu":
        raise RuntimeError("CUDA tensor detected and the MPI used doesn't have CUDA-aware MPI support")
    if not tensor.is_contiguous():
        raise RuntimeError("input tensor has to be contiguous")
    t = tensor.detach()
    arr = t.numpy()
    if t.numel() and arr.ctypes.data != t.data_ptr():
        # float16's .numpy() is a copy in this build; DLPack exports the storage itself
        arr = np.from_dlpack(t)
        if arr.ctypes.data != t.data_ptr() or not arr.flags.writeable:
            raise RuntimeError(f"internal error: a {t.dtype} tensor's memory could not be exposed to MPI "
                               "without a copy")
    arr = arr.reshape(-1)   # a view: the array is C-contiguous
    if arr.dtype == np.float16 and not _mpi_has_float16():
        # the same bits as uint16: exact for every collective that moves data; the reductions
        # widen these to float32 (`_reduce_wide`)
        arr = arr.view(np.uint16)
    return arr


_F16 = None


def _mpi_has_float16():
    """Whether this MPI reduces float16 (MPICH has ``MPIX_C_FLOAT16``; Open MPI has no
    float16 type). ``FERROGRAD_MPI_FLOAT16=0`` says no, to exercise the fallback."""
    global _F16
    if _F16 is None:
        import os

        if os.environ.get("FERROGRAD_MPI_FLOAT16") == "0":
            _F16 = False
        else:
            MPI = _mpi()
            try:
                MPI.COMM_SELF.Allreduce(MPI.IN_PLACE, np.ones(1, np.float16), op=MPI.SUM)
                _F16 = True
            except Exception:  # MPI_ERR_TYPE (or mpi4py's KeyError for the typecode)
                _F16 = False
    return _F16


def _is_wide_half(tensor, arr):
    """A float16 tensor whose buffer travels as uint16 (no float16 type in this MPI)."""
    return arr.dtype == np.uint16 and tensor.is_floating_point()


def _finish_half(half, wide, red, n):
    """Round the float32 result back into the float16 buffer (each element is the correctly
    rounded float16 of the exact result for 2 ranks, as a float16 reduction gives), then
    AVG's division in float16."""
    def finish():
        np.copyto(half, wide.astype(np.float16))
        if red is _RedOpType.AVG:
            _divide_in_place(half, n)
    return finish


def _is_floating(arr):
    return arr.dtype.kind == "f"


def _mpi_op(op, arr):
    """The MPI reduction for ``op`` on ``arr``'s dtype; AVG reduces with SUM and divides after."""
    MPI = _mpi()
    if arr.dtype == np.bool_:
        table = {_RedOpType.SUM: MPI.LOR, _RedOpType.MAX: MPI.LOR, _RedOpType.BOR: MPI.LOR,
                 _RedOpType.PRODUCT: MPI.LAND, _RedOpType.MIN: MPI.LAND, _RedOpType.BAND: MPI.LAND,
                 _RedOpType.BXOR: MPI.LXOR}
        if op not in table:
            raise RuntimeError(f"Cannot use ReduceOp.{op.name} with boolean inputs")
        return table[op]
    if op in (_RedOpType.BAND, _RedOpType.BOR, _RedOpType.BXOR) and _is_floating(arr):
        raise RuntimeError(f"Cannot use ReduceOp.{op.name} with non-integral dtype")
    return {_RedOpType.SUM: MPI.SUM, _RedOpType.AVG: MPI.SUM, _RedOpType.PRODUCT: MPI.PROD,
            _RedOpType.MIN: MPI.MIN, _RedOpType.MAX: MPI.MAX, _RedOpType.BAND: MPI.BAND,
            _RedOpType.BOR: MPI.BOR, _RedOpType.BXOR: MPI.BXOR}[op]


def _divide_in_place(arr, n):
    """AVG's second half: floats divide; integers divide truncating toward zero (as NCCL's avg)."""
    if n == 1:
        return
    if _is_floating(arr):
        np.divide(arr, arr.dtype.type(n), out=arr)
    else:
        q = np.abs(arr) // n
        np.copyto(arr, np.where(arr < 0, -q, q).astype(arr.dtype, copy=False))


class Work:
    """The handle an ``async_op=True`` call returns: ``wait()`` blocks until the operation is
    done (the GIL is released meanwhile), ``is_completed()`` polls it."""

    def __init__(self, requests, outputs, finish=None, source=False):
        self._requests = list(requests)
        self._outputs = outputs
        self._finish = finish
        self._done = not self._requests
        self._source_rank = -1
        self._want_source = source
        if self._done:
            self._complete(None)

    def _complete(self, status):
        self._done = True
        if status is not None:
            self._source_rank = status.Get_source()
        fin, self._finish = self._finish, None
        if fin is not None:
            fin()

    def is_completed(self):
        if self._done:
            return True
        MPI = _mpi()
        status = MPI.Status() if self._want_source else None
        if self._want_source:
            flag = self._requests[0].Test(status)
        else:
            flag = MPI.Request.Testall(self._requests)
        if flag:
            self._complete(status)
        return self._done

    def wait(self, timeout=None):
        if self._done:
            return True
        MPI = _mpi()
        if timeout is not None:
            seconds = timeout.total_seconds() if isinstance(timeout, timedelta) else float(timeout)
            deadline = time.monotonic() + seconds
            while not self.is_completed():
                if time.monotonic() > deadline:
                    raise RuntimeError(f"Work timed out after {int(seconds * 1000)}ms waiting for the "
                                       "operation to complete")
                time.sleep(0.0005)
            return True
        status = MPI.Status() if self._want_source else None
        if self._want_source:
            self._requests[0].Wait(status)
        else:
            MPI.Request.Waitall(self._requests)
        self._complete(status)
        return True

    def is_success(self):
        if not self._done:
            raise RuntimeError("Invalid call to AsyncWork::isSuccess before work has completed")
        return True

    def exception(self):
        return None

    def result(self):
        return list(self._outputs)

    def source_rank(self):
        return self._source_rank

    def synchronize(self):
        """CPU work: nothing to order on a stream."""


def _blocking_or_async(async_op, blocking, nonblocking, outputs, finish=None):
    """Runs the blocking MPI call (sync) or starts the non-blocking one and returns its Work."""
    if async_op:
        return Work([nonblocking()], outputs, finish)
    blocking()
    if finish is not None:
        finish()
    return None


# ----------------------------------------------------------------------------- collectives

def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduce ``tensor`` across the group in place (SUM, AVG, PRODUCT, MIN, MAX, BAND, BOR, BXOR)."""
    _check_single_tensor(tensor, "tensor")
    if _rank_not_in_group(group):
        _warn_not_in_group("all_reduce")
        return None
    pg = _group_or_default_group(group)
    red = _red_op(op)
    buf = _buffer(tensor)
    MPI = _mpi()
    comm, n = pg._comm, pg.size()
    if _is_wide_half(tensor, buf):
        half = buf.view(np.float16)
        wide = half.astype(np.float32)
        mop = _mpi_op(red, wide)
        return _blocking_or_async(async_op, lambda: comm.Allreduce(MPI.IN_PLACE, wide, op=mop),
                                  lambda: comm.Iallreduce(MPI.IN_PLACE, wide, op=mop), [tensor],
                                  _finish_half(half, wide, red, n))
    mop = _mpi_op(red, buf)
    finish = (lambda: _divide_in_place(buf, n)) if red is _RedOpType.AVG else None
    return _blocking_or_async(async_op, lambda: comm.Allreduce(MPI.IN_PLACE, buf, op=mop),
                              lambda: comm.Iallreduce(MPI.IN_PLACE, buf, op=mop), [tensor], finish)


def broadcast(tensor, src=None, group=None, async_op=False, group_src=None):
    """Copy ``tensor`` from rank ``src`` (a global rank; ``group_src`` for a rank in ``group``) to all."""
    pg = _group_or_default_group(group)
    root = _canonicalize_group_rank(pg, src, group_src)
    _check_single_tensor(tensor, "tensor")
    if _rank_not_in_group(group):
        _warn_not_in_group("broadcast")
        return None
    if not 0 <= root < pg.size():
        raise RuntimeError(f"invalid root rank: {root}")
    buf = _buffer(tensor)
    comm = pg._comm
    return _blocking_or_async(async_op, lambda: comm.Bcast(buf, root=root),
                              lambda: comm.Ibcast(buf, root=root), [tensor])


def _check_same_size_and_type(t_in, tensors):
    for t in tensors:
        if t.numel() != t_in.numel() or t.dtype != t_in.dtype:
            raise RuntimeError("Tensors are not equal in size or data type")


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """Gather ``tensor`` from every rank into ``tensor_list`` (one tensor per rank)."""
    _check_tensor_list(tensor_list, "tensor_list")
    _check_single_tensor(tensor, "tensor")
    if _rank_not_in_group(group):
        _warn_not_in_group("all_gather")
        return None
    pg = _group_or_default_group(group)
    src = _buffer(tensor)
    if len(tensor_list) != pg.size():
        raise RuntimeError("All gather: number of output tensors should equal to the world size")
    _check_same_size_and_type(tensor, tensor_list)
    for t in tensor_list:
        _buffer(t)   # contiguity / device checks before MPI starts
    flat = np.empty((pg.size(), src.size), dtype=src.dtype)
    comm = pg._comm

    def finish():
        for i, t in enumerate(tensor_list):
            np.copyto(_buffer(t), flat[i])

    return _blocking_or_async(async_op, lambda: comm.Allgather(src, flat),
                              lambda: comm.Iallgather(src, flat), tensor_list, finish)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """Gather every rank's ``input_tensor`` into ``output_tensor`` (concatenated along dim 0, or
    stacked), straight into the output's memory."""
    _check_single_tensor(input_tensor, "input_tensor")
    _check_single_tensor(output_tensor, "output_tensor")
    if _rank_not_in_group(group):
        _warn_not_in_group("all_gather_into_tensor")
        return None
    pg = _group_or_default_group(group)
    if output_tensor.dtype != input_tensor.dtype:
        raise TypeError("output tensor must have the same type as input tensor")
    if output_tensor.numel() != input_tensor.numel() * pg.size():
        raise ValueError("output tensor size must be equal to world_size times input tensor size")
    src, dst = _buffer(input_tensor), _buffer(output_tensor)
    comm = pg._comm
    return _blocking_or_async(async_op, lambda: comm.Allgather(src, dst),
                              lambda: comm.Iallgather(src, dst), [output_tensor])


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduce ``input`` across ranks and give rank ``r`` its ``r``-th equal chunk in ``output``."""
    _check_single_tensor(output, "output")
    _check_single_tensor(input, "input")
    if _rank_not_in_group(group):
        _warn_not_in_group("reduce_scatter_tensor")
        return None
    pg = _group_or_default_group(group)
    if output.dtype != input.dtype:
        raise TypeError("input tensor must be the same type as the output tensor.")
    if input.numel() != output.numel() * pg.size():
        raise ValueError("input tensor must be the same size as output size times world size")
    red = _red_op(op)
    src, dst = _buffer(input), _buffer(output)
    comm, n = pg._comm, pg.size()
    if _is_wide_half(input, src):
        wsrc, wdst = src.view(np.float16).astype(np.float32), np.empty(dst.size, np.float32)
        mop = _mpi_op(red, wsrc)
        return _blocking_or_async(async_op, lambda: comm.Reduce_scatter_block(wsrc, wdst, op=mop),
                                  lambda: comm.Ireduce_scatter_block(wsrc, wdst, op=mop), [output],
                                  _finish_half(dst.view(np.float16), wdst, red, n))
    mop = _mpi_op(red, src)
    finish = (lambda: _divide_in_place(dst, n)) if red is _RedOpType.AVG else None
    return _blocking_or_async(async_op, lambda: comm.Reduce_scatter_block(src, dst, op=mop),
                              lambda: comm.Ireduce_scatter_block(src, dst, op=mop), [output], finish)


all_gather_single = all_gather_into_tensor
reduce_scatter_single = reduce_scatter_tensor


def barrier(group=None, async_op=False, device_ids=None):
    if _rank_not_in_group(group):
        _warn_not_in_group("barrier")
        return None
    pg = _group_or_default_group(group)
    comm = pg._comm
    return _blocking_or_async(async_op, comm.Barrier, comm.Ibarrier, [])


# ----------------------------------------------------------------------------- point to point

def isend(tensor, dst=None, group=None, tag=0, group_dst=None):
    pg = _group_or_default_group(group)
    group_dst = _canonicalize_group_rank(pg, dst, group_dst)
    _check_single_tensor(tensor, "tensor")
    if _rank_not_in_group(group):
        _warn_not_in_group("isend")
        return None
    buf = _buffer(tensor)
    return Work([pg._comm.Isend(buf, dest=group_dst, tag=tag)], [])


def irecv(tensor, src=None, group=None, tag=0, group_src=None):
    _check_single_tensor(tensor, "tensor")
    if _rank_not_in_group(group):
        _warn_not_in_group("irecv")
        return None
    pg = _group_or_default_group(group)
    buf = _buffer(tensor)
    if src is None and group_src is None:
        source = _mpi().ANY_SOURCE
    else:
        source = _canonicalize_group_rank(pg, src, group_src)
    return Work([pg._comm.Irecv(buf, source=source, tag=tag)], [tensor], source=True)


def send(tensor, dst=None, group=None, tag=0, group_dst=None):
    pg = _group_or_default_group(group)
    group_dst = _canonicalize_group_rank(pg, dst, group_dst)
    _check_not_self_rank(pg, group_dst, "destination")
    work = isend(tensor, group=pg, tag=tag, group_dst=group_dst)
    if work is not None:
        work.wait()


def recv(tensor, src=None, group=None, tag=0, group_src=None):
    """Receive into ``tensor``; returns the sender's global rank (-1 outside ``group``)."""
    work = irecv(tensor, src=src, group=group, tag=tag, group_src=group_src)
    if work is None:
        return -1
    work.wait()
    pg = _group_or_default_group(group)
    if src is None:
        if group_src is None:
            group_src = work._source_rank
        _check_not_self_rank(pg, group_src, "source")
        src = get_global_rank(pg, group_src)
    return src
