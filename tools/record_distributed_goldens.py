"""Record DistributedSampler's index order from PyTorch:
`.venv-bench/bin/python tools/record_distributed_goldens.py` (writes
tests/python/fixtures/distributed_sampler.json). Explicit num_replicas/rank: no process group."""

import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]

LENGTHS = [1, 3, 7, 10, 11, 100]
REPLICAS = [1, 2, 3, 4, 8]
# one large case: the digits training split (1438 images) on 2 and 3 ranks
LARGE = [(1438, 2), (1438, 3)]


def main():
    import torch
    from torch.utils.data.distributed import DistributedSampler

    cases = []
    for n in LENGTHS:
        for reps in REPLICAS:
            for shuffle in (True, False):
                for drop_last in (False, True):
                    for seed, epochs in ((0, (0, 1, 7)), (1234, (0, 2))):
                        if not shuffle and (seed, epochs) != (0, (0, 1, 7)):
                            continue
                        for rank in range(reps):
                            s = DistributedSampler(range(n), num_replicas=reps, rank=rank, shuffle=shuffle,
                                                   seed=seed, drop_last=drop_last)
                            orders = []
                            for epoch in epochs:
                                s.set_epoch(epoch)
                                orders.append(list(s))
                            cases.append({"n": n, "num_replicas": reps, "rank": rank, "shuffle": shuffle,
                                          "drop_last": drop_last, "seed": seed, "epochs": list(epochs),
                                          "len": len(s), "orders": orders})
    for n, reps in LARGE:
        for drop_last in (False, True):
            for rank in range(reps):
                s = DistributedSampler(range(n), num_replicas=reps, rank=rank, seed=0, drop_last=drop_last)
                orders = []
                for epoch in (0, 1):
                    s.set_epoch(epoch)
                    orders.append(list(s))
                cases.append({"n": n, "num_replicas": reps, "rank": rank, "shuffle": True, "drop_last": drop_last,
                              "seed": 0, "epochs": [0, 1], "len": len(s), "orders": orders})
    errors = {}
    for reps, rank in ((2, 2), (2, -1), (1, 5)):
        try:
            DistributedSampler(range(4), num_replicas=reps, rank=rank)
        except ValueError as e:
            errors[f"{reps},{rank}"] = str(e)
    out = {"torch": torch.__version__, "cases": cases, "errors": errors}
    path = ROOT / "tests" / "python" / "fixtures" / "distributed_sampler.json"
    path.write_text(json.dumps(out, separators=(",", ":")))
    print("wrote", path, len(cases), "cases")


if __name__ == "__main__":
    main()
