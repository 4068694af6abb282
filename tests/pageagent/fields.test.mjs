// The page agent's field matching (resources/pageagent/src/fields.js), row by row: what a
// page calls a schema's field in other languages, and what its values look like.
import { test } from "node:test";
import assert from "node:assert/strict";
import { keyScore, valueKind, findValue, isLabel } from "../../resources/pageagent/src/fields.js";

const names = [
  ["a German price table's Artikel column is the name", "name", "Artikel", true],
  ["a German Preis column is the price", "price", "Preis", true],
  ["a French Prix column is the price", "price", "Prix", true],
  ["a Spanish Precio column is the price", "price", "Precio", true],
  ["a French Courriel label is the email", "email", "Courriel", true],
  ["a German Einwohner column is the population", "population", "Einwohner", true],
  ["a Spanish Año column is the year", "year", "Año", true],
  ["a German Autor label is the author", "author", "Autor", true],
  ["a Stock column is not the price", "price", "Stock", false],
  ["a Rank column is not the name", "name", "Rank", false],
];
for (const [sentence, property, key, matches] of names) {
  test(sentence, () => assert.equal(keyScore(property, key) >= 2, matches));
}

const kinds = [
  ["an integer year field holds years", "year", { type: "integer" }, "year"],
  ["a number price field holds prices", "price", { type: "number" }, "price"],
  ["an email field holds emails", "email", { type: "string" }, "email"],
  ["a date-formatted string holds dates", "published", { type: "string", format: "date" }, "date"],
  ["a plain name holds no typed value", "name", { type: "string" }, null],
  ["a population is a number", "population", { type: "integer" }, "number"],
];
for (const [sentence, property, schema, kind] of kinds) {
  test(sentence, () => assert.equal(valueKind(property, schema), kind));
}

const values = [
  ["the year in parentheses after an author", "year", "Dune by Frank Herbert (1965)", "1965"],
  ["no year inside a longer number", "year", "Item 12019", null],
  ["a euro price written the German way", "price", "Preis: 1.234,56 €", "1.234,56 €"],
  ["a dollar price, not the number ending the name before it", "price", "Buoy 2 $1,299.00", "$1,299.00"],
  ["a price with a currency code first", "price", "EUR 45,00", "EUR 45,00"],
  ["an email inside a sentence", "email", "Write to ada@example.org today", "ada@example.org"],
  ["a German date in words", "date", "am 5. März 2024", "5. März 2024"],
  ["a bare number is no price", "price", "1965", null],
];
for (const [sentence, kind, text, want] of values) {
  test(sentence, () => assert.equal(findValue(kind, text), want));
}

test("labels are known in four languages", () => {
  for (const l of ["Price", "Preis", "Prix", "Precio", "by", "von"]) assert.ok(isLabel(l), l);
  assert.ok(!isLabel("Kompass"));
});
