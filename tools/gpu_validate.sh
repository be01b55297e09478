#!/usr/bin/env bash
# The GPU run of the CUDA issue, for the lent GPU machine (no Rust there): install the abi3
# wheel built here (`maturin build --release --out wheelhouse`), then run every check and
# write the logs under $OUT (the device tool brings them back).
#
#   on this machine:  maturin build --release --out wheelhouse
#   on the GPU:       bash tools/gpu_validate.sh        (carry: wheelhouse)
set -uo pipefail
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
python -m venv --system-site-packages /tmp/fgenv && . /tmp/fgenv/bin/activate
pip install --no-deps --force-reinstall wheelhouse/ferrograd-*.whl > "$OUT/install.log" 2>&1
{ date -u; nvidia-smi; python -c "import ferrograd as t; print('available', t.cuda.is_available(), t.cuda.device_count(), t.cuda.get_device_name(0))"; } > "$OUT/env.log" 2>&1
python -m pytest tests/python -q -x -k "not test_ptx" > "$OUT/pytest.log" 2>&1; echo "pytest rc=$?" >> "$OUT/summary.log"
[ -d ../shared/conformance ] && python ../shared/conformance/run.py --lib ferrograd > "$OUT/conformance.log" 2>&1
python examples/seeds/seed_004.py > "$OUT/seed_004.log" 2>&1; echo "seed_004 rc=$?" >> "$OUT/summary.log"
python examples/train_digits.py --device cuda > "$OUT/main_job_cuda.log" 2>&1; echo "main job rc=$?" >> "$OUT/summary.log"
python benches/gpu_bench.py --lib torch,ferrograd --rounds 3 > "$OUT/gpu_bench.jsonl" 2>&1; echo "bench rc=$?" >> "$OUT/summary.log"
cat "$OUT/summary.log"
