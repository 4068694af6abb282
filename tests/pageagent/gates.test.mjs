// The page agent's gate detection (resources/pageagent/src/gates.js), row by row: each row
// is a sentence naming a page and the input reason it must (or must not) produce.
import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyGate, readAmount } from "../../resources/pageagent/src/gates.js";

const shop = "https://shop.example/checkout";
const rows = [
  ["a reCAPTCHA frame asks for human verification",
    { url: shop, frames: ["https://www.google.com/recaptcha/api2/anchor?k=x"] }, "human_verification_required", "recaptcha"],
  ["a reCAPTCHA frame from recaptcha.net asks for human verification",
    { url: shop, frames: ["https://www.recaptcha.net/recaptcha/api2/anchor"] }, "human_verification_required", "recaptcha"],
  ["an hCaptcha frame asks for human verification",
    { url: shop, frames: ["https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html"] }, "human_verification_required", "hcaptcha"],
  ["a Turnstile frame asks for human verification",
    { url: shop, frames: ["https://challenges.cloudflare.com/cdn-cgi/challenge-platform/turnstile"] }, "human_verification_required", "turnstile"],
  ["a g-recaptcha widget before its frame loads asks for human verification",
    { url: shop, widgets: [{ className: "g-recaptcha", sitekey: true }] }, "human_verification_required", "recaptcha"],
  ["a cf-turnstile widget asks for human verification",
    { url: shop, widgets: [{ className: "cf-turnstile" }] }, "human_verification_required", "turnstile"],
  ["an unnamed widget with a data-sitekey is a captcha",
    { url: shop, widgets: [{ className: "my-check", sitekey: true }] }, "human_verification_required", "captcha"],
  ["a 'Just a moment...' interstitial is a challenge page",
    { url: shop, title: "Just a moment...", text: "" }, "human_verification_required", "challenge"],
  ["a page asking to verify you are human is a challenge page",
    { url: shop, title: "Shop", text: "Please verify you are human to continue." }, "human_verification_required", "challenge"],
  ["a frame of another host (a video) is no verification",
    { url: shop, frames: ["https://www.youtube.com/embed/x"], text: "Our products" }, null, ""],
  ["an unchecked terms checkbox asks to accept the terms",
    { url: shop, checkboxes: [{ label: "I agree to the Terms of Service", checked: false }] }, "terms_acknowledgement_required", ""],
  ["a checked terms checkbox asks nothing",
    { url: shop, checkboxes: [{ label: "I agree to the Terms of Service", checked: true }] }, null, ""],
  ["a German AGB checkbox asks to accept the terms",
    { url: shop, checkboxes: [{ label: "Ich akzeptiere die AGB", checked: false }] }, "terms_acknowledgement_required", ""],
  ["a terms modal with an accept button asks to accept the terms",
    { url: shop, dialogs: ["Terms and conditions\nPlease read …"], buttons: ["I accept"] }, "terms_acknowledgement_required", ""],
  ["a newsletter checkbox is no terms",
    { url: shop, checkboxes: [{ label: "Send me the newsletter", checked: false }] }, null, ""],
  ["a card number field asks for a payment method",
    { url: shop, fields: [{ name: "cardnumber", autocomplete: "cc-number" }], buttons: ["Pay $40.00"] }, "payment_method_required", ""],
  ["a pay button with a total asks to confirm the payment",
    { url: shop, text: "Subtotal $35.00\nShipping $5.00\nTotal $40.00", buttons: ["Place order"] }, "payment_confirmation_required", ""],
  ["a pay button without any amount is not taken for a payment",
    { url: shop, text: "Thank you", buttons: ["Place order"] }, null, ""],
  ["a connect-your-account button asks to link an account",
    { url: shop, buttons: ["Connect your Harbour account"] }, "account_link_required", ""],
  ["a claim-offer button asks to claim an offer",
    { url: shop, buttons: ["Claim offer"] }, "offer_claim_required", ""],
  ["a plain product page asks nothing",
    { url: shop, text: "Sextant 310.00", buttons: ["Add to cart", "Search"] }, null, ""],
  ["a verification widget wins over a payment step on the same page",
    { url: shop, frames: ["https://www.google.com/recaptcha/api2/anchor"], text: "Total $40.00", buttons: ["Pay now"] }, "human_verification_required", "recaptcha"],
];

for (const [name, page, reason, kind] of rows) {
  test(name, () => {
    const gate = classifyGate(page);
    assert.equal(gate ? gate.reason : null, reason);
    if (kind) assert.equal(gate.kind, kind);
    if (gate) assert.ok(gate.message.length > 0);
  });
}

test("a payment confirmation names the amount and the merchant", () => {
  const gate = classifyGate({ url: "https://shop.example/pay", siteName: "Harbour Shop",
    text: "Sextant 310.00\nTotal: €1.299,50", buttons: ["Jetzt kaufen"] });
  assert.equal(gate.reason, "payment_confirmation_required");
  assert.equal(gate.merchant, "Harbour Shop");
  assert.deepEqual([gate.amount.value, gate.amount.currency], [1299.5, "EUR"]);
});

const amounts = [
  ["a dollar total with thousands", "Total $1,299.00", 1299, "USD"],
  ["a euro amount after the number with a decimal comma", "Gesamt 12,50 €", 12.5, "EUR"],
  ["a currency code before the amount", "Amount due: CHF 40", 40, "CHF"],
  ["the total line wins over earlier prices", "Item £5.00\nTotal £7.50", 7.5, "GBP"],
];
for (const [name, text, value, currency] of amounts) {
  test(`reads ${name}`, () => {
    const a = readAmount(text);
    assert.deepEqual([a.value, a.currency], [value, currency]);
  });
}

test("reads no amount from text without one", () => {
  assert.equal(readAmount("Thank you for your order"), null);
});
