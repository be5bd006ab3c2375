// Validates assets/hero.glb (or the model named, relative to the project's root) with the Khronos
// glTF validator and prints the report as JSON.
//
//   npm install --no-save gltf-validator   (in any directory; set NODE_PATH to its node_modules)
//   node scripts/validate-hero.mjs > assets/hero.validation.json
//   node scripts/validate-hero.mjs assets/crawler.glb > assets/crawler.validation.json
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
const file = process.argv[2] ?? "assets/hero.glb";
const bytes = new Uint8Array(readFileSync(join(root, file)));
const report = await validator.validateBytes(bytes, { uri: file });
delete report.validatedAt;
console.log(JSON.stringify(report, null, 2));
const { numErrors, numWarnings } = report.issues;
process.exit(numErrors === 0 && numWarnings === 0 ? 0 : 1);
