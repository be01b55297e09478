"""DLPack protocol methods of ``Tensor`` (``__dlpack__``, ``__dlpack_device__``).

The capsule itself is made natively (``_C._to_dlpack``); this module checks the protocol's
arguments as PyTorch does. CUDA tensors export their device memory; the stream argument says
where the consumer reads it (our work is on the legacy default stream: for another stream the
device is synchronised first).
"""

import enum

from . import _C


class DLDeviceType(enum.IntEnum):
    """Device types of the DLPack specification (``dlpack.h``)."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


class _ExportError(BufferError, RuntimeError):
    """Current PyTorch raises ``BufferError`` where older releases raised ``RuntimeError``;
    this is both, so code written for either catches it."""


def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule sharing this tensor's memory (a copy when ``copy=True``).

    ``max_version >= (1, 0)`` gives a ``"dltensor_versioned"`` capsule, otherwise a legacy
    ``"dltensor"`` one. For CPU tensors ``stream`` must be None or -1.
    """
    if self.requires_grad:
        raise _ExportError("Can't export tensors that require gradient, use tensor.detach()")
    if stream is not None and type(stream) is not int:
        raise TypeError("stream must be ``int`` or ``none``")
    if self.device.type == "cpu" and stream is not None and stream != -1:
        raise AssertionError("stream should be None on cpu.")
    if self.device.type == "cuda":
        if stream == 0:
            raise AssertionError("stream 0 is ambiguous on CUDA: pass 1 (legacy default) or 2 (per-thread default)")
        # our kernels run on the legacy default stream, which the consumer's legacy stream
        # (None or 1) is ordered with; for any other stream, finish our work first
        if stream not in (None, 1, -1):
            _C._cuda_synchronize(self.device.index or 0)
    if max_version is not None:
        try:
            major, minor = max_version
            max_version = (int(major), int(minor))
        except (TypeError, ValueError):
            raise TypeError("max_version must be None or a tuple with two elements.") from None
    t = self
    copied = False
    if dl_device is not None:
        try:
            want = (int(dl_device[0]), int(dl_device[1]))
        except (TypeError, ValueError, IndexError):
            raise TypeError("dl_device must be a tuple (device_type, device_id)") from None
        if want != tuple(int(v) for v in __dlpack_device__(self)):
            if want != (int(DLDeviceType.kDLCPU), 0):
                raise BufferError(f"unsupported device requested: {want}")
            if copy is False:
                raise BufferError("exporting to the CPU needs a copy, but copy=False")
            t, copied = self.cpu(), True
    if copy and not copied:
        t, copied = self.detach().clone(), True
    return _C._to_dlpack(t, max_version, copied=copied)


def __dlpack_device__(self):
    """``(device_type, device_id)`` as DLPack numbers them: ``(kDLCPU, 0)`` on the CPU."""
    d = self.device
    if d.type == "cpu":
        return (DLDeviceType.kDLCPU, 0)
    if d.type == "cuda":
        return (DLDeviceType.kDLCUDA, d.index if d.index is not None else 0)
    raise ValueError(f"Unknown device type {d.type} for Dlpack")


def _install(cls):
    """Set the protocol methods on the tensor class."""
    cls.__dlpack__ = __dlpack__
    cls.__dlpack_device__ = __dlpack_device__
