"""Named tuples returned by ``max``, ``min``, ``sort``, ``topk`` (as ``torch.return_types``)."""
