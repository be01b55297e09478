"""Optimisers: SGD (with momentum) and Adam."""

import math

from ..autograd.grad_mode import no_grad


class Optimizer:
    def __init__(self, params, defaults):
        self.params = [p for p in params]
        self.defaults = defaults
        self.state = {}

    def _grads(self, weight_decay):
        """(param, gradient with weight decay applied) for params that have a gradient."""
        for p in self.params:
            if p.grad is not None:
                yield p, (p.grad + weight_decay * p if weight_decay else p.grad)

    def zero_grad(self, set_to_none=True):
        for p in self.params:
            if set_to_none:
                p.grad = None
            elif p.grad is not None:
                p.grad.zero_()


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0.0, weight_decay=0.0):
        super().__init__(params, dict(lr=lr, momentum=momentum, weight_decay=weight_decay))
        self.lr, self.momentum, self.weight_decay = lr, momentum, weight_decay

    @no_grad()
    def step(self):
        for p, g in self._grads(self.weight_decay):
            if self.momentum:
                buf = self.state.get(id(p))
                if buf is None:
                    buf = g.clone()
                else:
                    buf.mul_(self.momentum).add_(g)
                self.state[id(p)] = buf
                g = buf
            p.sub_(g, alpha=self.lr)


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))
        self.lr, self.betas, self.eps, self.weight_decay = lr, betas, eps, weight_decay
        self.t = 0

    @no_grad()
    def step(self):
        self.t += 1
        b1, b2 = self.betas
        for p, g in self._grads(self.weight_decay):
            st = self.state.setdefault(id(p), {})
            if not st:
                st["m"] = g * 0
                st["v"] = g * 0
            m, v = st["m"], st["v"]
            m.mul_(b1).add_(g, alpha=1 - b1)
            v.mul_(b2).add_(g * g, alpha=1 - b2)
            mhat = m / (1 - b1 ** self.t)
            vhat = v / (1 - b2 ** self.t)
            p.sub_(mhat / (vhat.sqrt() + self.eps), alpha=self.lr)
