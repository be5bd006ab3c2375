// Validates assets/hero.glb with the Khronos glTF validator and prints the report as JSON.
//
//   npm install --no-save gltf-validator   (in any directory; set NODE_PATH to its node_modules)
//   node scripts/validate-hero.mjs > assets/hero.validation.json
//
// The report's timestamp-free fields only are printed (validatedAt is dropped), so the committed
// report stays stable. Exits 1 when the model has errors or warnings.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const validator = require("gltf-validator");
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bytes = new Uint8Array(readFileSync(join(root, "assets", "hero.glb")));
const report = await validator.validateBytes(bytes, { uri: "assets/hero.glb" });
delete report.validatedAt;
console.log(JSON.stringify(report, null, 2));
const { numErrors, numWarnings } = report.issues;
process.exit(numErrors === 0 && numWarnings === 0 ? 0 : 1);
