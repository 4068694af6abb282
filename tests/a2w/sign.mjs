// Web Bot Auth with the reference signer (the web-bot-auth package).
//   node sign.mjs keygen
//     → {jwk, directory, keyid}: a fresh Ed25519 key and its key directory document
//   node sign.mjs sign <jwkJson> <method> <url> <signatureAgent> <createdSec> <expiresSec> [form]
//     → {"Signature": …, "Signature-Input": …, "Signature-Agent": …} for that request.
//     <signatureAgent> is the directory's origin as an sf-string ("\"https://…\"").
//     form "string" (the default): the older Signature-Agent, that sf-string, covered
//     whole ("signature-agent"). form "dictionary": the current draft's, a dictionary
//     member under the signature's label (sig1="https://…"), covered as
//     "signature-agent";key="sig1".
import { signatureHeaders } from "web-bot-auth";
import { Ed25519Signer } from "web-bot-auth/crypto";

const [command, ...rest] = process.argv.slice(2);
if (command === "keygen") {
  const { privateKey } = await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]);
  const jwk = await crypto.subtle.exportKey("jwk", privateKey);
  const signer = await Ed25519Signer.fromJWK(jwk);
  const directory = { keys: [{ kty: "OKP", crv: "Ed25519", x: jwk.x }] };
  console.log(JSON.stringify({ jwk, directory, keyid: signer.keyid }));
} else if (command === "sign") {
  const [jwkJson, method, url, agent, created, expires, form = "string"] = rest;
  const signer = await Ed25519Signer.fromJWK(JSON.parse(jwkJson));
  const params = {
    created: new Date(Number(created) * 1000),
    expires: new Date(Number(expires) * 1000),
  };
  let header = agent;
  if (form === "dictionary") {
    // web-bot-auth 0.1.3 signs a keyed component with the whole field's value; RFC 9421
    // §2.1.2 signs the member's value alone. So the message it signs carries the member
    // value (the sf-string), and the request sends the dictionary around it.
    header = `sig1=${agent}`;
    params.key = "sig1";
    params.components = ["@authority", { name: "signature-agent", parameters: new Map([["key", "sig1"]]) }];
  } else if (form !== "string") {
    console.error(`unknown form ${form}: string or dictionary`);
    process.exit(2);
  }
  const request = new Request(url, { method, headers: { "Signature-Agent": agent } });
  const headers = await signatureHeaders(request, signer, params);
  console.log(JSON.stringify({ ...headers, "Signature-Agent": header }));
} else {
  console.error("usage: sign.mjs keygen | sign <jwk> <method> <url> <agent> <created> <expires> [string|dictionary]");
  process.exit(2);
}
