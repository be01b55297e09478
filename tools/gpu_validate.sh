#!/usr/bin/env bash
# The GPU run of the CUDA issue, for the lent GPU machine (no Rust there): install the abi3
# wheel built here, then run every check and write the logs under $OUT (the device tool
# brings them back). The checks that need no exclusive GPU run side by side (16 cores there);
# the benchmark runs first, alone on the GPU.
#
#   on this machine:  maturin build --release --out wheelhouse
#                     mkdir -p gpu_shared && cp -r ../shared/conformance gpu_shared/   (git-excluded)
#   on the GPU:       bash tools/gpu_validate.sh [bench rounds]   (carry: wheelhouse, gpu_shared)
set -uo pipefail
OUT=${OUT:-gpu-out}
ROUNDS=${1:-2}
OUT=$(cd "$OUT" 2>/dev/null && pwd || { mkdir -p "$OUT" && cd "$OUT" && pwd; })
export PYTHONUNBUFFERED=1
PY=python3
$PY -m pip install --no-deps --force-reinstall wheelhouse/ferrograd-*.whl > "$OUT/env.log" 2>&1
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; $PY -V;
  $PY -c "import ferrograd as t; print('ferrograd available', t.cuda.is_available(), t.cuda.device_count(), t.cuda.get_device_name(0), t.cuda._matmul_backend())"; } >> "$OUT/env.log" 2>&1
S="$OUT/summary.log"
# the benchmark first, alone on the GPU
timeout 90 $PY benches/gpu_bench.py --lib torch,ferrograd --rounds "$ROUNDS" > "$OUT/gpu_bench.jsonl" 2>&1; echo "bench rc=$?" >> "$S"
# mpiexec runs as root there
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
( timeout 120 $PY tools/gpu_smoke.py > "$OUT/smoke.log" 2>&1; echo "smoke rc=$?" >> "$S" ) &
( timeout 175 $PY -m pytest tests/python tests/fuzz -v -rfE --tb=short -p no:cacheprovider -p no:benchmark -n 12 --timeout 60 \
    -k "not test_ptx and not test_typing" > "$OUT/pytest.log" 2>&1; echo "pytest rc=$?" >> "$S" ) &
( [ -d gpu_shared/conformance ] && timeout 150 $PY gpu_shared/conformance/run.py --lib ferrograd > "$OUT/conformance.log" 2>&1; echo "conformance rc=$?" >> "$S" ) &
( cd examples/seeds && { timeout 60 $PY seed_004.py; echo "seed_004 rc=$?";
    sed 's/ferrograd/torch/g' seed_004.py > /tmp/seed_004_torch.py && cp _runner.py /tmp/ && echo "=== torch ===" && timeout 60 $PY /tmp/seed_004_torch.py; } > "$OUT/seeds.log" 2>&1 ) &
( timeout 150 $PY examples/train_digits.py --device cuda > "$OUT/main_job_cuda.log" 2>&1; echo "main job rc=$?" >> "$S" ) &
wait
cat "$S"; grep -E "^(FAILED|ERROR)" "$OUT/pytest.log" | head -40; tail -1 "$OUT/pytest.log"; tail -1 "$OUT/conformance.log"; grep -v "^PASS" "$OUT/smoke.log" | head -30; grep -E "summary|ptx" "$OUT/gpu_bench.jsonl"
