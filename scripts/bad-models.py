#!/usr/bin/env python3
"""Writes the bad-model corpus (tests/bad_input/model/*.glb) from assets/hero.glb.

Each file breaks the model in one way; tests/bad_input/model/expected.ron says what loading it
must report (checked by tests/it/bad_model.rs). Run from the repository root after the hero model
changes: python3 scripts/bad-models.py
"""
import json
import struct
from pathlib import Path

OUT = Path("tests/bad_input/model")
hero = Path("assets/hero.glb").read_bytes()
json_len = struct.unpack_from("<I", hero, 12)[0]
doc = json.loads(hero[20:20 + json_len])
bin_chunk = hero[20 + json_len:]


def glb(d):
    text = json.dumps(d, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    body = struct.pack("<I", len(text)) + b"JSON" + text + bin_chunk
    return b"glTF" + struct.pack("<II", 2, 12 + len(body)) + body


def edited(f):
    d = json.loads(json.dumps(doc))
    f(d)
    return glb(d)


def no_skin(d):
    del d["skins"]
    for n in d["nodes"]:
        n.pop("skin", None)


def no_clips(d):
    del d["animations"]


def rename_run(d):
    for a in d["animations"]:
        if a["name"] == "run":
            a["name"] = "sprint"


def far_accessor(d):
    # The hips' translation keys of the first clip, moved past the end of the binary chunk.
    out = d["animations"][0]["samplers"][0]["output"]
    d["accessors"][out]["byteOffset"] = 1 << 20


def times_not_scalar(d):
    # `run`'s key times point at the walk's hips translations (VEC3, not SCALAR).
    run = next(a for a in d["animations"] if a["name"] == "run")
    walk = next(a for a in d["animations"] if a["name"] == "walk")
    run["samplers"][0]["input"] = walk["samplers"][0]["output"]


def requires_draco(d):
    d["extensionsUsed"] = ["KHR_draco_mesh_compression"]
    d["extensionsRequired"] = ["KHR_draco_mesh_compression"]


def no_joints(d):
    del d["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"]


def rigid_part_under_no_joint(d):
    # The mesh loses its skin (a rigid part) and hangs under a node that is no joint.
    m = next(i for i, n in enumerate(d["nodes"]) if "mesh" in n)
    d["nodes"][m].pop("skin")
    d["nodes"].append({"name": "not_a_joint", "children": [m]})
    scene = d["scenes"][d.get("scene", 0)]["nodes"]
    scene[scene.index(m)] = len(d["nodes"]) - 1


def channel_without_node(d):
    # A channel of `run` whose target names no node.
    run = next(a for a in d["animations"] if a["name"] == "run")
    del run["channels"][0]["target"]["node"]


files = {
    "empty.glb": b"",
    "truncated.glb": hero[:4096],
    "not_gltf.glb": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    "no_skin.glb": edited(no_skin),
    "no_clips.glb": edited(no_clips),
    "missing_run.glb": edited(rename_run),
    "accessor_out_of_range.glb": edited(far_accessor),
    "times_not_scalar.glb": edited(times_not_scalar),
    "requires_draco.glb": edited(requires_draco),
    "no_joints.glb": edited(no_joints),
    "rigid_part_under_no_joint.glb": edited(rigid_part_under_no_joint),
    "channel_without_node.glb": edited(channel_without_node),
}
OUT.mkdir(parents=True, exist_ok=True)
for name, data in files.items():
    (OUT / name).write_bytes(data)
    print(f"{OUT / name}: {len(data)} bytes")
