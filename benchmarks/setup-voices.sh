#!/usr/bin/env bash
# Installs the English speech synthesisers benchmarks/asr.py speaks with (Debian, as root):
# espeak-ng with mbrola voices, festival with its voices, flite, and SVOX pico and RHVoice (non-free).
# Idempotent: enables contrib/non-free only if missing, installs only what is absent.
set -euo pipefail
sources=/etc/apt/sources.list.d/debian.sources
if [ -f "$sources" ] && ! grep -q "non-free" "$sources"; then
    sed -i 's/^Components: main$/Components: main contrib non-free/' "$sources"
fi
packages=(
    espeak-ng sox
    mbrola mbrola-us1 mbrola-us2 mbrola-us3 mbrola-en1
    festival festvox-kallpc16k festvox-rablpc16k festvox-kdlpc16k festvox-us-slt-hts festvox-don
    flite
    libttspico-utils
    rhvoice rhvoice-english
)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "speech synthesisers ready: espeak-ng (+mbrola), festival, flite, pico2wave, RHVoice"
