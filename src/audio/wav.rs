//! 16-bit PCM WAV files: writing (the sound generator, `sim --audio`) and reading (the sound bank,
//! once at start). Only what the game uses: PCM, 16 bits, mono or stereo, any rate. Unknown
//! chunks are skipped; anything else is an error naming the file and what is wrong.
use std::path::Path;

/// Decoded samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Wav {
    /// Frames per second.
    pub rate: u32,
    /// 1 or 2.
    pub channels: u16,
    /// Interleaved samples.
    pub samples: Vec<i16>,
}

/// The bytes of a 16-bit PCM WAV file.
pub fn encode(rate: u32, channels: u16, samples: &[i16]) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + samples.len() * 2);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&channels.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * channels as u32 * 2).to_le_bytes());
    out.extend_from_slice(&(channels * 2).to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}

/// Why a WAV file could not be decoded.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {why}")]
pub struct WavError {
    /// The file.
    pub path: String,
    /// What is wrong.
    pub why: String,
}

/// Decodes the bytes of a WAV file (`path` names it in errors).
pub fn decode(path: &Path, bytes: &[u8]) -> Result<Wav, WavError> {
    let err = |why: String| WavError {
        path: path.display().to_string(),
        why,
    };
    if bytes.len() < 12 || &bytes[0..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err(err("not a RIFF/WAVE file".into()));
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let u32_at =
        |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let mut fmt: Option<(u16, u16, u32, u16)> = None;
    let mut i = 12;
    while i + 8 <= bytes.len() {
        let id = &bytes[i..i + 4];
        let len = u32_at(i + 4) as usize;
        let body = i + 8;
        if body + len > bytes.len() {
            return Err(err(format!(
                "chunk {:?} at byte {i} runs past the end of the file",
                String::from_utf8_lossy(id)
            )));
        }
        if id == b"fmt " {
            if len < 16 {
                return Err(err(format!("fmt chunk of {len} bytes (16 needed)")));
            }
            fmt = Some((
                u16_at(body),
                u16_at(body + 2),
                u32_at(body + 4),
                u16_at(body + 14),
            ));
        } else if id == b"data" {
            let (format, channels, rate, bits) =
                fmt.ok_or_else(|| err("data chunk before the fmt chunk".into()))?;
            if format != 1 || bits != 16 {
                return Err(err(format!(
                    "format {format} with {bits} bits per sample: only 16-bit PCM (format 1) is read"
                )));
            }
            if !(channels == 1 || channels == 2) {
                return Err(err(format!("{channels} channels: only mono or stereo")));
            }
            if !(8000..=192_000).contains(&rate) {
                return Err(err(format!("sample rate {rate} Hz out of 8000..=192000")));
            }
            let samples = bytes[body..body + len]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect::<Vec<_>>();
            if samples.is_empty() || samples.len() % channels as usize != 0 {
                return Err(err(format!(
                    "{} samples: empty or not a whole number of {channels}-channel frames",
                    samples.len()
                )));
            }
            return Ok(Wav {
                rate,
                channels,
                samples,
            });
        }
        i = body + len + (len & 1);
    }
    Err(err("no data chunk".into()))
}

/// Reads and decodes a WAV file.
pub fn read(path: &Path) -> Result<Wav, WavError> {
    let bytes = std::fs::read(path).map_err(|e| WavError {
        path: path.display().to_string(),
        why: format!("cannot read: {e}"),
    })?;
    decode(path, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_then_decode_round_trips() {
        let s = [0i16, 1, -1, i16::MAX, i16::MIN, 300];
        let w = decode(Path::new("x.wav"), &encode(22_050, 2, &s)).unwrap();
        assert_eq!(
            (w.rate, w.channels, w.samples.as_slice()),
            (22_050, 2, &s[..])
        );
    }

    #[test]
    fn bad_files_name_the_file_and_the_problem() {
        let p = Path::new("bad.wav");
        let e = decode(p, b"RIFF....WAVX").unwrap_err().to_string();
        assert!(e.starts_with("bad.wav: ") && e.contains("RIFF"), "{e}");
        let mut b = encode(22_050, 1, &[1, 2, 3]);
        b[34] = 8; // 8 bits per sample
        let e = decode(p, &b).unwrap_err().to_string();
        assert!(e.contains("16-bit"), "{e}");
        let b = encode(22_050, 1, &[1, 2, 3]);
        let e = decode(p, &b[..b.len() - 2]).unwrap_err().to_string();
        assert!(e.contains("past the end"), "{e}");
    }
}
