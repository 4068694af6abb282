// Web Bot Auth with the reference signer (the web-bot-auth package).
//   node sign.mjs keygen
//     → {jwk, directory, keyid}: a fresh Ed25519 key and its key directory document
//   node sign.mjs sign <jwkJson> <method> <url> <signatureAgent> <createdSec> <expiresSec>
//     → {"Signature": …, "Signature-Input": …} for that request
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
  const [jwkJson, method, url, agent, created, expires] = rest;
  const signer = await Ed25519Signer.fromJWK(JSON.parse(jwkJson));
  const request = new Request(url, { method, headers: { "Signature-Agent": agent } });
  const headers = await signatureHeaders(request, signer, {
    created: new Date(Number(created) * 1000),
    expires: new Date(Number(expires) * 1000),
  });
  console.log(JSON.stringify(headers));
} else {
  console.error("usage: sign.mjs keygen | sign <jwk> <method> <url> <agent> <created> <expires>");
  process.exit(2);
}
