"""``torch.profiler``: the same CPU recorder as ``torch.autograd.profiler``, with PyTorch's
newer interface (activities, schedules, ``step()``, ``on_trace_ready``)."""

import enum

from ..autograd.profiler import EventList, record_function
from ..autograd.profiler import profile as _legacy_profile

__all__ = ["profile", "record_function", "ProfilerActivity", "ProfilerAction", "schedule",
           "tensorboard_trace_handler", "supported_activities", "kineto_available"]


class ProfilerActivity(enum.Enum):
    """What to record: CPU time (CUDA kernels are not timed by ferrograd)."""

    CPU = 0
    CUDA = 1


def supported_activities():
    """The activities this profiler can record: CPU time."""
    return {ProfilerActivity.CPU}


def kineto_available():
    """Whether PyTorch's Kineto tracer is present (it is not: ferrograd records with its own)."""
    return False


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
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self._active = None
        self._events = None

    def _start_recording(self):
        if self._active is None:
            self._active = _legacy_profile(record_shapes=self.record_shapes)
            self._active.__enter__()

    def _stop_recording(self):
        if self._active is not None:
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

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
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
