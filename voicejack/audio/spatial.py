"""Putting a mono sound at a direction around the listener: pure numpy, mono in, stereo out.

Azimuth is in degrees: 0 straight ahead, +90 to the right, -90 to the
left, 180 behind.

- Speakers: constant-power panning, limited so that the far channel is
  never more than MAX_EAR_DIFFERENCE_DB below the near one. Two speakers
  cannot place a sound behind, so a sound at 150 degrees is panned like one
  at 30.
- Headphones: the spherical-head model of Brown & Duda (1998): each ear
  gets a delay (interaural time difference, up to about 0.65 ms for a head
  of radius 8.75 cm) and a one-pole, one-zero head-shadow shelf whose
  high-frequency gain depends on the angle between the source and that ear
  (+6 dB facing it, about -20 dB in its shadow). Sounds from behind also get
  a gentle treble cut, a crude stand-in for the pinna, which helps tell
  front from back. Both the delay and the filter are applied in one FFT,
  which gives an exact fractional-sample delay. The far ear keeps the
  shadow's darker colour and its delay, but its overall level is lifted to
  at most MAX_EAR_DIFFERENCE_DB below the near ear when the shadow would cut
  deeper (a bright cue at the side would otherwise be 14 dB down).

Why a limit at all: a player with one earbud, or one good ear, must hear
every seat and every step. Why 8 dB: the far side at 8 dB down keeps 40 %
of the amplitude (roughly 60 % of the loudness), comfortably audible on the
one ear, while a level difference of 8 dB is still heard well over halfway
towards the louder side by two ears, so left, centre and right stay
distinct. At 6 dB the sides start to crowd the centre; at 9-10 dB the quiet
side gets close to half as loud.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np

HEAD_RADIUS_M: Final = 0.0875
SPEED_OF_SOUND_M_S: Final = 343.0
ALPHA_MIN: Final = 0.1
THETA_MIN_DEG: Final = 150.0
MAX_ITD_S: Final = HEAD_RADIUS_M / SPEED_OF_SOUND_M_S * (1.0 + math.pi / 2.0)  # ~0.656 ms
_TAIL = 128  # room for the shelf filter's decay after the sound ends
MAX_EAR_DIFFERENCE_DB: Final = 8.0
_FAR_SIDE_FLOOR: Final = 10.0 ** (-MAX_EAR_DIFFERENCE_DB / 20.0)


def wrap_azimuth(azimuth: float) -> float:
    """Into -180 < azimuth <= 180."""
    wrapped = (azimuth + 180.0) % 360.0 - 180.0
    return 180.0 if wrapped == -180.0 else wrapped


def pan_gains(azimuth: float) -> tuple[float, float]:
    """Constant-power speaker gains (left**2 + right**2 == 1), the far side at most 8 dB down.

    The level difference grows with the sine of the azimuth (front and back
    fold together), reaching the limit only at the sides.
    """
    position = math.sin(math.radians(azimuth))  # -1 left .. +1 right
    far = _FAR_SIDE_FLOOR ** abs(position)       # the far side's gain relative to the near side
    near = 1.0 / math.sqrt(1.0 + far * far)
    return (near, far * near) if position < 0 else (far * near, near)


def pan_speakers(mono: np.ndarray, azimuth: float) -> np.ndarray:
    left, right = pan_gains(azimuth)
    mono = np.asarray(mono, dtype=np.float32)
    return np.stack([mono * np.float32(left), mono * np.float32(right)], axis=1)


def _ear_angle(azimuth: float, ear_azimuth: float) -> float:
    """Angle in degrees (0..180) between the source and the ear's outward axis."""
    return abs(wrap_azimuth(azimuth - ear_azimuth))


def shadow_alpha(ear_angle_deg: float) -> float:
    """Brown & Duda's high-frequency gain of the head-shadow filter for one ear."""
    return (1.0 + ALPHA_MIN / 2.0) + (1.0 - ALPHA_MIN / 2.0) * math.cos(math.radians(ear_angle_deg / THETA_MIN_DEG * 180.0))


def ear_delay(ear_angle_deg: float) -> float:
    """Seconds of delay to one ear, 0 for the ear facing the source (Brown & Duda's T(theta) + a/c)."""
    a_over_c = HEAD_RADIUS_M / SPEED_OF_SOUND_M_S
    theta = math.radians(ear_angle_deg)
    if theta < math.pi / 2.0:
        return a_over_c * (1.0 - math.cos(theta))
    return a_over_c * (1.0 + theta - math.pi / 2.0)


def binaural(mono: np.ndarray, azimuth: float, sample_rate: int) -> np.ndarray:
    """Headphone rendering of ``mono`` at ``azimuth``: (frames + tail, 2) float32."""
    mono = np.asarray(mono, dtype=np.float32)
    max_delay = int(math.ceil(MAX_ITD_S * sample_rate))
    length = mono.size + max_delay + _TAIL
    n_fft = length + (length & 1)
    spectrum = np.fft.rfft(mono, n_fft)
    omega = 2.0 * np.pi * np.fft.rfftfreq(n_fft, 1.0 / sample_rate)
    two_omega0 = 2.0 * SPEED_OF_SOUND_M_S / HEAD_RADIUS_M
    behind = max(0.0, -math.cos(math.radians(azimuth)))
    rear = (1.0 + 1j * (1.0 - 0.5 * behind) * omega / (2.0 * two_omega0)) / (1.0 + 1j * omega / (2.0 * two_omega0))
    out = np.empty((length, 2), dtype=np.float32)
    for channel, ear_azimuth in enumerate((-90.0, 90.0)):
        angle = _ear_angle(azimuth, ear_azimuth)
        alpha = shadow_alpha(angle)
        shelf = (1.0 + 1j * alpha * omega / two_omega0) / (1.0 + 1j * omega / two_omega0)
        delay = np.exp(-1j * omega * ear_delay(angle))
        out[:, channel] = np.fft.irfft(spectrum * shelf * rear * delay, n_fft)[:length]
    _lift_far_ear(out)
    return out


def _lift_far_ear(stereo: np.ndarray) -> None:
    """Raise the quieter channel, in place, to at most MAX_EAR_DIFFERENCE_DB below the louder one."""
    levels = np.sqrt(np.mean(np.square(stereo, dtype=np.float64), axis=0))
    quiet = int(np.argmin(levels))
    floor = float(levels.max()) * _FAR_SIDE_FLOOR
    if 0.0 < levels[quiet] < floor:
        stereo[:, quiet] *= np.float32(floor / levels[quiet])


def spatialise(mono: np.ndarray, azimuth: float, sample_rate: int, headphones: bool) -> np.ndarray:
    """Stereo float32 for headphones (binaural) or speakers (panned)."""
    if headphones:
        return binaural(mono, azimuth, sample_rate)
    return pan_speakers(mono, azimuth)
