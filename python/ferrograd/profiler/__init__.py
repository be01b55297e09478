"""``torch.profiler``: the same CPU recorder as ``torch.autograd.profiler``, with PyTorch's
newer interface (activities, schedules, ``step()``, ``on_trace_ready``)."""

import enum
import os
from abc import ABC, abstractmethod

from ..autograd.profiler import DeviceType, EventList, KinetoStepTracker, record_function  # noqa: F401
from ..autograd.profiler import ProfilerActivity, kineto_available  # noqa: F401
from ..autograd.profiler import _Session
from ..optim.optimizer import register_optimizer_step_post_hook  # noqa: F401  (torch.profiler has it too)
from ..autograd.profiler import profile as _legacy_profile

__all__ = ["profile", "schedule", "supported_activities", "tensorboard_trace_handler", "ProfilerAction",
           "ProfilerActivity", "kineto_available", "DeviceType", "record_function", "ExecutionTraceObserver"]

PROFILER_STEP_NAME = "ProfilerStep"


def supported_activities():
    """The activities this profiler can record: CPU time."""
    return {ProfilerActivity.CPU}


class RecordScope(enum.Enum):
    """The kind of a recorded range (PyTorch's ``RecordScope``): ops are ``FUNCTION``, backward
    nodes ``BACKWARD_FUNCTION``, ``record_function`` ranges ``USER_SCOPE``."""

    FUNCTION = 0
    BACKWARD_FUNCTION = 1
    TORCHSCRIPT_FUNCTION = 2
    KERNEL_FUNCTION_DTYPE = 3
    CUSTOM_CLASS = 4
    BUILD_FEATURE = 5
    LITE_INTERPRETER = 6
    USER_SCOPE = 7
    STATIC_RUNTIME_OP = 8
    STATIC_RUNTIME_MODEL = 9

    def __int__(self):
        return self.value


class ProfilerAction(enum.Enum):
    """What a schedule asks of a step: nothing, warm up, record, or record and hand over."""

    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    """PyTorch's step schedule: skip ``skip_first`` steps, then cycles of ``wait`` idle,
    ``warmup`` warm-up and ``active`` recorded steps (``repeat`` cycles, 0 = forever)."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError("Invalid profiler schedule arguments")
    if warmup == 0:
        import warnings
        warnings.warn("Profiler won't be using warmup, this can skew profiler results")

    def schedule_fn(step):
        if step < 0:
            raise AssertionError(f"Step should be non-negative, got {step}")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        num_steps = wait + warmup + active
        if repeat > 0 and step / num_steps >= repeat:
            return ProfilerAction.NONE
        mod_step = step % num_steps
        if mod_step < wait:
            return ProfilerAction.NONE
        if mod_step < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if mod_step < num_steps - 1 else ProfilerAction.RECORD_AND_SAVE

    return schedule_fn


def _always_record(_step):
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    """An ``on_trace_ready`` that writes each finished trace as a Chrome trace JSON file."""
    import os
    import socket
    import time

    def handler(prof):
        os.makedirs(dir_name, exist_ok=True)
        name = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        path = os.path.join(dir_name, f"{name}.{time.time_ns()}.pt.trace.json")
        prof.export_chrome_trace(path)
        if use_gzip:
            import gzip
            import shutil
            with open(path, "rb") as src, gzip.open(path + ".gz", "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.remove(path)

    return handler


class profile:
    """Record CPU time of ops and backward nodes; with a ``schedule``, only in its active
    steps (advance with ``step()``), calling ``on_trace_ready(prof)`` after each active span."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False,
                 use_cuda=None, custom_trace_id_callback=None):
        acts = set(activities) if activities is not None else {ProfilerActivity.CPU}
        if ProfilerActivity.CUDA in acts or use_cuda:
            raise RuntimeError("ferrograd's profiler records CPU time only; CUDA kernels run asynchronously "
                               "and are not timed (use activities=[ProfilerActivity.CPU])")
        if profile_memory or with_stack or with_flops or with_modules:
            raise RuntimeError("ferrograd's profiler records times and input shapes only "
                               "(profile_memory, with_stack, with_flops and with_modules are not recorded)")
        self.schedule = schedule or _always_record
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.execution_trace_observer = execution_trace_observer
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self._active = None
        self._events = None
        KinetoStepTracker.init_step_count(PROFILER_STEP_NAME)

    def _start_recording(self):
        if self._active is None:
            if self.execution_trace_observer:
                self.execution_trace_observer.start()
            self._active = _legacy_profile(record_shapes=self.record_shapes)
            self._active.__enter__()

    def _stop_recording(self):
        if self._active is not None:
            if self.execution_trace_observer:
                self.execution_trace_observer.stop()
            self._active.__exit__(None, None, None)
            self._events = self._active.function_events
            self._active = None
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)

    def start(self):
        """Start recording if the schedule's current step records."""
        if self.current_action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            self._start_recording()

    def stop(self):
        """Stop recording (calls `on_trace_ready` when a trace was recorded)."""
        self._stop_recording()

    def step(self):
        """Advance the schedule by one step."""
        prev = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        if prev == ProfilerAction.RECORD_AND_SAVE:
            self._stop_recording()
        if self.current_action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            self._start_recording()
        if os.environ.get("KINETO_USE_DAEMON", ""):
            KinetoStepTracker.increment_step(PROFILER_STEP_NAME)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        KinetoStepTracker.erase_step_count(PROFILER_STEP_NAME)
        if self.execution_trace_observer:
            self.execution_trace_observer.cleanup()
        return False

    def events(self):
        """The events of the last recorded span."""
        if self._events is None:
            raise RuntimeError("Profiler didn't finish running")
        return self._events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        """Events of the last recorded span added up per name."""
        return self.events().key_averages(group_by_input_shape)

    def export_chrome_trace(self, path):
        """Write the last recorded span as a Chrome trace JSON file."""
        return self.events().export_chrome_trace(path)

    def table(self, **kwargs):
        """The last recorded span as torch's text table."""
        return self.events().table(**kwargs)


EventList = EventList


# ---- execution trace ---------------------------------------------------------------------------------

class _ITraceObserver(ABC):
    """Abstract interface for a Trace observer.
    This satisfies 3 methods: start, stop and cleanup"""

    @abstractmethod
    def start(self):
        pass

    @abstractmethod
    def stop(self):
        pass

    @abstractmethod
    def cleanup(self):
        pass


_ET_SCHEMA = "1.1.1-chakra.0.0.4"
_ET_SCOPE = {"op": 0, "backward": 1, "user": 7}  # at::RecordScope: FUNCTION, BACKWARD_FUNCTION, USER_SCOPE


def _et_node(id, name, parent, rf_id, tid, scope, shapes=()):
    shapes = [list(s) for s in shapes]
    attrs = [("rf_id", "uint64", rf_id), ("fw_parent", "uint64", 0), ("seq_id", "int64", -1),
             ("scope", "uint64", scope), ("tid", "uint64", tid), ("fw_tid", "uint64", 0),
             ("op_schema", "string", ""), ("kernel_backend", "string", ""), ("kernel_file", "string", ""),
             ("tensor_range", "string", "")]
    return {"id": id, "name": name, "ctrl_deps": parent,
            "inputs": {"values": [[] for _ in shapes], "shapes": shapes, "types": ["Tensor"] * len(shapes),
                       "strides": [[] for _ in shapes]},
            "outputs": {"values": [], "shapes": [], "types": [], "strides": []},
            "attrs": [{"name": n, "type": t, "value": v} for n, t, v in attrs]}


class ExecutionTraceObserver(_ITraceObserver):
    """Execution Trace Observer

    Each process can have a single ExecutionTraceObserver instance. The observer
    can be added to record function callbacks via calling register_callback()
    explicitly. Without calling unregister_callback(), repeated calls to
    register_callback() will not add additional observers to record function
    callbacks. Once an ExecutionTraceObserver is created, the start() and stop()
    methods control when the event data is recorded.

    Deleting or calling unregister_callback() will remove the observer from the
    record function callbacks, finalize the output file, and will stop
    incurring any overheads.

    The file is PyTorch's Chakra execution-trace JSON (``schema``, ``pid``, ``time``,
    ``start_ts``, ``finish_ts``, ``nodes``), built from ferrograd's profiler events: a process
    node, one node per thread, and one node per op (``aten::<op>``), backward node and
    ``record_function`` range, nested through ``ctrl_deps``, with ``rf_id``, ``scope`` (0 op,
    1 backward node, 7 user range) and ``tid`` attributes. ferrograd differs: the nodes carry
    the recorded input shapes only (types ``"Tensor"``, empty values and strides, no outputs, no
    ``op_schema``), there are no allocation/``aten::empty`` nodes of PyTorch's internals, and the
    file is complete after every ``stop()`` (PyTorch's only after ``unregister_callback()``).
    """

    def __init__(self):
        """Initializes the default states."""
        self._registered = False
        self._execution_trace_running = False
        self.extra_resources_collection = False
        self.resources_dir = ""
        self.output_file_path = ""
        self.output_file_path_observer = ""
        self._session = None
        self._raw = []
        self._start_ts = None

    def __del__(self):
        """Calls unregister_callback() to make sure to finalize outputs."""
        self.unregister_callback()

    @staticmethod
    def build_execution_trace_obs_from_env():
        """Returns an ExecutionTraceObserver instance if the environment variable
        ENABLE_PYTORCH_EXECUTION_TRACE is set to 1, otherwise returns None.

        Configures the observer to also collect extra resources if the environment variable
        ``ENABLE_PYTORCH_EXECUTION_TRACE_EXTRAS=1``.
        """
        import tempfile
        from warnings import warn

        if os.environ.get("ENABLE_PYTORCH_EXECUTION_TRACE", "0") == "1":
            try:
                with tempfile.NamedTemporaryFile("w+t", suffix=".et.json", delete=False) as fp:
                    filename = fp.name
            except Exception as e:
                warn(f"Execution trace will not be recorded. Exception on creating default temporary file: {e}",
                     stacklevel=2)
                return None
            et = ExecutionTraceObserver()
            et.register_callback(filename)
            et.set_extra_resource_collection(os.environ.get("ENABLE_PYTORCH_EXECUTION_TRACE_EXTRAS", "0") == "1")
            return et
        return None

    def set_extra_resource_collection(self, val):
        """Collects extra resources (generated kernels, index tensor data, ...) into a directory
        next to the trace. Call with ``val=True`` after ``register_callback()``."""
        self.extra_resources_collection = val
        if self.extra_resources_collection:
            self.get_resources_dir(can_create=True)

    def register_callback(self, output_file_path):
        """Adds ET observer to record function callbacks. The data will be
        written to output_file_path."""
        import tempfile

        if not self._registered:
            self.output_file_path = output_file_path
            if output_file_path.endswith(".gz"):
                with tempfile.NamedTemporaryFile("w+b", suffix=".json", delete=False) as fp:
                    output_file_path = fp.name
            self.output_file_path_observer = output_file_path
            self._raw = []
            self._start_ts = None
            self._registered = True
        return self

    def get_resources_dir(self, can_create=False):
        """The resources directory next to the trace (``<trace name>_resources``), created when
        ``can_create``; None unless extra resource collection is on."""
        if not self.extra_resources_collection:
            return None
        if self.resources_dir:
            return self.resources_dir
        generated_path = ExecutionTraceObserver.get_resources_dir_for_et_path(self.output_file_path,
                                                                              create_dir=can_create)
        if not generated_path:
            return None
        self.resources_dir = generated_path
        return self.resources_dir

    @staticmethod
    def get_resources_dir_for_et_path(trace_path, create_dir=False):
        """``<dir>/<trace name without extension>_resources`` for ``trace_path`` if it exists (or
        was created with ``create_dir``), else None."""
        from warnings import warn

        work_dir, file_name = os.path.split(trace_path)
        resource_dir = os.path.join(work_dir, os.path.splitext(file_name)[0] + "_resources")
        if not os.path.exists(resource_dir):
            if create_dir:
                try:
                    os.mkdir(resource_dir)
                except Exception:
                    warn(f"Execution trace exception when creating {resource_dir}", stacklevel=2)
                    return None
            else:
                return None
        return resource_dir

    def unregister_callback(self):
        """Removes ET observer from record function callbacks (stops it and finalizes the file)."""
        if getattr(self, "_registered", False):
            self.stop()
            self._write()
            if self.output_file_path.endswith("gz"):
                import gzip

                print(f"Execution Trace: compressing {self.output_file_path_observer} to {self.output_file_path}")
                with open(self.output_file_path_observer, "rb") as fin:
                    with gzip.open(self.output_file_path, "wb") as fout:
                        fout.writelines(fin)
                os.remove(self.output_file_path_observer)
            self._registered = False

    @property
    def is_registered(self):
        """Returns True if the execution trace observer is registered, otherwise False."""
        return self._registered

    def is_running(self):
        """Returns True if the observer is running, otherwise False."""
        return self._execution_trace_running

    def start(self):
        """Starts to capture."""
        if self._registered and not self._execution_trace_running:
            import time

            if self._start_ts is None:
                self._start_ts = time.monotonic_ns() // 1_000_000
            self._session = _Session(True)
            self._session.start()
            self._execution_trace_running = True

    def stop(self):
        """Stops to capture."""
        if self._execution_trace_running:
            self._raw.extend(self._session.stop())
            self._session = None
            self._execution_trace_running = False
            self._write()

    def cleanup(self):
        """Calls unregister_callback() to make sure to finalize outputs."""
        self.unregister_callback()

    def get_output_file_path(self):
        """Returns the output file name or None."""
        if self.output_file_path:
            return self.output_file_path
        return None

    def _nodes(self):
        nodes = []
        threads = {}
        next_id = 3
        for t in sorted({e[2] for e in self._raw}):
            threads[t] = 2 if not threads else next_id
            if threads[t] != 2:
                next_id += 1
        rf = 1
        for t, tid_node in threads.items():
            evs = sorted((e for e in self._raw if e[2] == t), key=lambda e: (e[3], -e[4]))
            nodes.append(_et_node(tid_node, "[pytorch|profiler|execution_trace|thread]", 1, 0, t, 7))
            stack = []  # (end_ns, node id)
            done = []
            for name, kind, thread, start, end, shapes in evs:
                while stack and stack[-1][0] <= start:
                    stack.pop()
                parent = stack[-1][1] if stack and end <= stack[-1][0] else tid_node
                nid = next_id
                next_id += 1
                done.append((end, nid, _et_node(nid, name, parent, rf, thread, _ET_SCOPE.get(kind, 0), shapes)))
                rf += 1
                stack.append((end, nid))
            # as PyTorch writes them: each node when its op ends (children before parents)
            nodes.extend(n for _, _, n in sorted(done, key=lambda d: (d[0], -d[1])))
        nodes.append(_et_node(1, "[pytorch|profiler|execution_trace|process]", 1, 0, 0, 7))
        return nodes

    def _write(self):
        import json
        import time

        if not self.output_file_path_observer:
            return
        now = time.monotonic_ns() // 1_000_000
        trace = {"schema": _ET_SCHEMA, "pid": os.getpid(), "time": time.strftime("%Y-%m-%d %H:%M:%S"),
                 "start_ts": self._start_ts if self._start_ts is not None else now, "nodes": self._nodes(),
                 "finish_ts": now}
        with open(self.output_file_path_observer, "w") as fh:
            json.dump(trace, fh)
