//! Reading glTF files, shared by the model loader and the animation-file loader
//! ([`super::model`]): the container and required-extension checks made before the `gltf` crate
//! sees the bytes, the buffers (the binary chunk, or files beside a `.gltf`, read with a size
//! guard), and the accessor checks that keep every later read inside its buffer, each failure
//! an [`AnimError`] naming what is wrong. Nothing here knows skins, meshes or clips.
use std::path::Path;

use gltf::accessor::{DataType, Dimensions};

use super::error::{AnimError, ModelFileError};

/// The bytes of a glTF file's buffers that live in files of their own, in buffer order (`None`:
/// the binary chunk's).
pub(super) type OwnBuffers = Vec<Option<Vec<u8>>>;

/// A glTF file's document and its buffers in other files ([`load_buffers`]), after the checks
/// every file gets first (container lengths, required extensions).
pub(super) fn open_gltf(
    bytes: &[u8],
    external: &impl Fn(&str) -> Result<Vec<u8>, AnimError>,
) -> Result<(gltf::Gltf, OwnBuffers), AnimError> {
    check_container(bytes)?;
    check_required_extensions(bytes)?;
    let gltf = gltf::Gltf::from_slice(bytes).map_err(describe_gltf_error)?;
    let owned = load_buffers(&gltf, external)?;
    Ok((gltf, owned))
}

/// The bytes of each of `gltf`'s buffers that lives in another file (`None`: the binary chunk),
/// each checked to be as long as the file says.
pub(super) fn load_buffers(
    gltf: &gltf::Gltf,
    external: &impl Fn(&str) -> Result<Vec<u8>, AnimError>,
) -> Result<OwnBuffers, AnimError> {
    let blob = gltf.blob.as_deref();
    let mut owned = OwnBuffers::new();
    for b in gltf.buffers() {
        let data = match b.source() {
            gltf::buffer::Source::Bin => None,
            gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => {
                return Err(AnimError::Unsupported(format!(
                    "buffer {} is embedded as a base64 data URI; export as .glb or as \
                     .gltf with separate files",
                    b.index()
                )))
            }
            gltf::buffer::Source::Uri(uri) => Some(external(uri)?),
        };
        let len = data.as_deref().or(blob).map_or(0, <[u8]>::len);
        if len < b.length() {
            return Err(AnimError::Truncated(format!(
                "buffer {} needs {} bytes, {} holds {len}",
                b.index(),
                b.length(),
                match b.source() {
                    gltf::buffer::Source::Bin => "the binary chunk".to_string(),
                    gltf::buffer::Source::Uri(u) => format!("`{u}`"),
                }
            )));
        }
        owned.push(data);
    }
    Ok(owned)
}

/// Every buffer's bytes: its own file's (`owned`, from [`load_buffers`]) or the binary chunk.
pub(super) fn buffer_slices<'a>(gltf: &'a gltf::Gltf, owned: &'a OwnBuffers) -> Vec<&'a [u8]> {
    let blob = gltf.blob.as_deref();
    owned
        .iter()
        .map(|d| d.as_deref().or(blob).unwrap_or(&[]))
        .collect()
}

/// The GLB header and chunk lengths, checked before the `gltf` crate sees the bytes so that a
/// cut file is reported as truncated (with both lengths) rather than as a parse error.
pub(super) fn check_container(bytes: &[u8]) -> Result<(), AnimError> {
    if bytes.is_empty() {
        return Err(AnimError::Truncated("the file is empty".into()));
    }
    if !bytes.starts_with(b"glTF") {
        let text = bytes.iter().find(|b| !b.is_ascii_whitespace());
        if text != Some(&b'{') {
            return Err(AnimError::NotGltf(
                "it starts with neither the `glTF` magic of a .glb nor a JSON object".into(),
            ));
        }
        return Ok(());
    }
    if bytes.len() < 20 {
        return Err(AnimError::Truncated(format!(
            "{} bytes, shorter than the 12-byte header and the first chunk's header",
            bytes.len()
        )));
    }
    let u32_at =
        |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let declared = u32_at(8) as usize;
    if bytes.len() < declared {
        return Err(AnimError::Truncated(format!(
            "the file is {} bytes but its header says {declared}",
            bytes.len()
        )));
    }
    let json_len = u32_at(12) as usize;
    if 20 + json_len > bytes.len() {
        return Err(AnimError::Truncated(format!(
            "the JSON chunk is {json_len} bytes but only {} follow it",
            bytes.len() - 20
        )));
    }
    Ok(())
}

/// Refuses a file that requires an extension, by name, before the `gltf` crate's validation
/// (which reports only "unsupported" at a JSON path). None is supported: every extension this
/// loader could use is optional by nature (a file may list it in `extensionsUsed` and loads).
pub(super) fn check_required_extensions(bytes: &[u8]) -> Result<(), AnimError> {
    let json = if bytes.starts_with(b"glTF") {
        let len = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
        &bytes[20..20 + len]
    } else {
        bytes
    };
    #[derive(serde::Deserialize)]
    struct Required {
        #[serde(default, rename = "extensionsRequired")]
        required: Vec<String>,
    }
    // A document that does not parse is reported by the `gltf` crate next.
    let Ok(doc) = serde_json::from_slice::<Required>(json) else {
        return Ok(());
    };
    match doc.required.as_slice() {
        [] => Ok(()),
        names => Err(AnimError::Unsupported(format!(
            "the file requires the extension{} {} (re-export without {})",
            if names.len() > 1 { "s" } else { "" },
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", "),
            if names.len() > 1 { "them" } else { "it" }
        ))),
    }
}

pub(super) fn describe_gltf_error(e: gltf::Error) -> AnimError {
    match e {
        gltf::Error::Binary(b) => AnimError::NotGltf(format!("bad binary container: {b}")),
        gltf::Error::Deserialize(d) => AnimError::NotGltf(format!("bad glTF JSON: {d}")),
        gltf::Error::Validation(v) => {
            let first: Vec<String> = v
                .iter()
                .take(3)
                .map(|(path, err)| format!("{}: {err}", path.as_str()))
                .collect();
            AnimError::Invalid(first.join("; "))
        }
        other => AnimError::Invalid(other.to_string()),
    }
}

/// Checks an accessor before it is read: its shape, component types, a non-zero count, sparse
/// counts, a stride no smaller than an element, and the data inside its buffer.
pub(super) fn check_accessor(
    a: &gltf::Accessor<'_>,
    what: &str,
    dims: Dimensions,
    types: &[DataType],
) -> Result<(), AnimError> {
    let bad = |why: String| {
        Err(AnimError::Invalid(format!(
            "{what} (accessor {}): {why}",
            a.index()
        )))
    };
    if a.dimensions() != dims {
        return bad(format!("{:?} elements, expected {dims:?}", a.dimensions()));
    }
    if !types.contains(&a.data_type()) {
        return bad(format!(
            "{:?} components, expected one of {types:?}",
            a.data_type()
        ));
    }
    if a.count() == 0 {
        return bad("no elements".into());
    }
    // Sparse storage: the reader bounds-checks the indices' and values' views itself (data
    // outside them reads as missing); it needs at least one and at most `count` of them.
    if let Some(sparse) = a.sparse() {
        if sparse.count() == 0 || sparse.count() > a.count() {
            return bad(format!(
                "{} sparse values for {} elements",
                sparse.count(),
                a.count()
            ));
        }
    }
    let Some(view) = a.view() else {
        if a.sparse().is_some() {
            // All zeros but the sparse values.
            return Ok(());
        }
        return bad("no buffer view".into());
    };
    let size = a.size();
    let stride = view.stride().unwrap_or(size);
    if stride < size {
        return bad(format!(
            "stride {stride} is less than the element size {size}"
        ));
    }
    let end = (a.count() - 1)
        .checked_mul(stride)
        .and_then(|x| x.checked_add(a.offset() + size));
    if end.is_none_or(|e| e > view.length())
        || view.offset() + view.length() > view.buffer().length()
    {
        return bad("its data lies outside its buffer".into());
    }
    Ok(())
}

/// The buffer reader for the accessors: each buffer's data by index (lengths checked on load).
pub(super) fn buffer_data<'s>(
    buffers: &'s [&'s [u8]],
) -> impl Clone + for<'b> Fn(gltf::Buffer<'b>) -> Option<&'s [u8]> + 's {
    move |b: gltf::Buffer<'_>| buffers.get(b.index()).copied()
}

/// Most bytes read for one external buffer (a guard against a URI naming a huge file).
pub const MAX_BUFFER_BYTES: u64 = 1 << 30;

/// What reads a `.gltf` file's external buffer or image by URI.
pub(super) type External<'a> = &'a dyn Fn(&str) -> Result<Vec<u8>, AnimError>;

/// Reads the glTF file at `path` and runs `load` on its bytes, external buffers and images read
/// from beside it ([`read_beside`]); an error names the file.
pub(super) fn load_file<T>(
    path: &Path,
    load: impl FnOnce(&[u8], External<'_>) -> Result<T, AnimError>,
) -> Result<T, ModelFileError> {
    let bytes = std::fs::read(path).map_err(|error| ModelFileError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    let dir = path.parent().unwrap_or(Path::new(""));
    load(&bytes, &|uri| read_beside(dir, uri)).map_err(|error| ModelFileError::Bad {
        path: path.to_path_buf(),
        error,
    })
}

/// A `.gltf` file's external buffer `uri`, read from `dir` (the model's directory): a relative
/// path, `%XX` escapes decoded.
fn read_beside(dir: &Path, uri: &str) -> Result<Vec<u8>, AnimError> {
    let mut name = Vec::with_capacity(uri.len());
    let b = uri.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).and_then(|&c| hex(c)),
            b.get(i + 2).and_then(|&c| hex(c)),
        ) {
            (b'%', Some(h), Some(l)) => {
                name.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                name.push(c);
                i += 1;
            }
        }
    }
    let name = String::from_utf8(name)
        .map_err(|_| AnimError::Invalid(format!("buffer URI `{uri}` is not UTF-8")))?;
    if name.contains("://") {
        return Err(AnimError::Unsupported(format!(
            "buffer URI `{uri}` is not a file beside the model"
        )));
    }
    let path = dir.join(&name);
    let cannot = |e: std::io::Error| {
        AnimError::Invalid(format!(
            "cannot read the buffer file `{}`: {e}",
            path.display()
        ))
    };
    let size = std::fs::metadata(&path).map_err(cannot)?.len();
    if size > MAX_BUFFER_BYTES {
        return Err(AnimError::Unsupported(format!(
            "the buffer file `{}` is {size} bytes, more than {MAX_BUFFER_BYTES}",
            path.display()
        )));
    }
    std::fs::read(&path).map_err(cannot)
}

pub(super) fn outside(what: &str) -> AnimError {
    AnimError::Invalid(format!("{what}: its data lies outside the binary chunk"))
}
