// Checks Pilothouse's API description with real tools:
//   node validate.mjs DOC.json [SAMPLES.json]
// 1. DOC.json under @seriousme/openapi-schema-validator (the OpenAPI 3.1 schema);
// 2. every sample — a real answer of the running service, {method, path (the route's
//    pattern), status, contentType, body} — against the schema DOC.json gives that
//    answer, with Ajv (JSON Schema 2020-12, formats checked).
// Prints one JSON line: {valid, errors, checked}.
import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const [docPath, samplesPath] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(docPath, "utf8"));
const errors = [];

const validator = new Validator();
const res = await validator.validate(doc);
if (!res.valid)
  errors.push({ where: "document", errors: res.errors });

let checked = 0;
if (samplesPath) {
  const samples = JSON.parse(readFileSync(samplesPath, "utf8"));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, "pilothouse");
  const pointer = (...parts) =>
    parts.map((p) => String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
  for (const s of samples) {
    const where = `${s.method} ${s.path} → ${s.status}`;
    const op = doc.paths?.[s.path]?.[s.method.toLowerCase()];
    if (!op) {
      errors.push({ where, errors: "no such operation in the document" });
      continue;
    }
    let response = op.responses?.[String(s.status)];
    let base = ["paths", s.path, s.method.toLowerCase(), "responses", String(s.status)];
    if (!response) {
      errors.push({ where, errors: "status not described" });
      continue;
    }
    if (response.$ref) { // "#/components/responses/Error"
      const name = response.$ref.split("/").pop();
      response = doc.components.responses[name];
      base = ["components", "responses", name];
    }
    const type = s.contentType || "application/json";
    if (!response.content?.[type]) {
      errors.push({ where, errors: `media type ${type} not described` });
      continue;
    }
    const validate = ajv.getSchema(
      "pilothouse#/" + pointer(...base, "content", type, "schema"));
    if (!validate) {
      errors.push({ where, errors: "schema not found" });
      continue;
    }
    ++checked;
    if (!validate(s.body))
      errors.push({ where, errors: validate.errors, body: s.body });
  }
}

console.log(JSON.stringify({ valid: errors.length === 0, errors, checked }));
process.exit(errors.length === 0 ? 0 : 1);
