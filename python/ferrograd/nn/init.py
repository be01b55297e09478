"""Parameter initialisers."""

import math


def uniform_(t, a=0.0, b=1.0, generator=None):
    return t.uniform_(a, b, generator=generator)


def normal_(t, mean=0.0, std=1.0, generator=None):
    return t.normal_(mean, std, generator=generator)


def zeros_(t):
    from .. import no_grad

    with no_grad():
        t.zero_()
    return t


def kaiming_uniform_(t, a=math.sqrt(5)):
    fan_in = t.shape[1] if t.dim() > 1 else t.shape[0]
    gain = math.sqrt(2.0 / (1 + a * a))
    bound = gain * math.sqrt(3.0 / fan_in)
    return uniform_(t, -bound, bound)
