"""Functional forms of the nn ops."""


def linear(x, weight, bias=None):
    y = x.matmul(weight.t())
    return y + bias if bias is not None else y


def relu(x, inplace=False):
    return x.relu_() if inplace else x.relu()


def sigmoid(x):
    return x.sigmoid()


def tanh(x):
    return x.tanh()


def softmax(x, dim=None, dtype=None):
    return x.softmax(dim if dim is not None else -1)


def log_softmax(x, dim=None, dtype=None):
    return x.log_softmax(dim if dim is not None else -1)


def nll_loss(logp, target, reduction="mean"):
    picked = logp.gather(1, target.unsqueeze(1)).squeeze(1)
    loss = -picked
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def cross_entropy(input, target, reduction="mean"):
    return nll_loss(input.log_softmax(1), target, reduction)


def mse_loss(input, target, reduction="mean"):
    d = (input - target) ** 2
    if reduction == "mean":
        return d.mean()
    if reduction == "sum":
        return d.sum()
    return d
