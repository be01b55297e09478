"""``ChannelShuffle`` (``torch.nn.modules.channelshuffle``)."""

from .. import functional as F
from .module import Module

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    """Divide the channels of a ``(N, C, *)`` tensor into ``groups`` groups and interleave
    them (ShuffleNet's channel shuffle)."""

    __constants__ = ["groups"]

    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"
