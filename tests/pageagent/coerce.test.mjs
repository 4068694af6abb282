// The page agent's value coercion (resources/pageagent/src/coerce.js), row by row: each
// row is a sentence naming what a person writes and what it must mean.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseNumber, parseBoolean, parseDate, coerceScalar } from "../../resources/pageagent/src/coerce.js";

const numbers = [
  ["a population with comma thousands on an English page is the whole number", "1,234,567", "en", 1234567],
  ["a population with dot thousands on a German page is the whole number", "1.234.567", "de", 1234567],
  ["one comma group on an English page is thousands", "1,234", "en", 1234],
  ["one comma group on a German page is a decimal", "1,234", "de", 1.234],
  ["one dot group on a German page is thousands", "1.234", "de", 1234],
  ["one dot group on an English page is a decimal", "1.234", "en", 1.234],
  ["a decimal comma with two places is a decimal anywhere", "12,50", "en", 12.5],
  ["comma thousands and a decimal point", "1,299.00", "en", 1299],
  ["dot thousands and a decimal comma", "12.345,67", "de", 12345.67],
  ["Swiss apostrophe thousands", "1'234.50", "de-CH", 1234.5],
  ["a typographic apostrophe groups thousands too", "1’234’567", "de-CH", 1234567],
  ["French narrow no-break space thousands and a decimal comma", "1\u202f234,5", "fr", 1234.5],
  ["no-break space thousands", "2\u00a0500\u00a0000", "fr", 2500000],
  ["plain spaces group thousands", "1 234 567", "en", 1234567],
  ["a dollar price", "$1,299.99", "en", 1299.99],
  ["a euro price after the number", "12,50 €", "de", 12.5],
  ["a currency code before the number", "EUR 1.200,00", "de", 1200],
  ["a currency code after the number", "1,200 USD", "en", 1200],
  ["a percentage keeps its number", "12.5%", "en", 12.5],
  ["a German percentage", "12,5 %", "de", 12.5],
  ["k means thousand", "1.2k", "en", 1200],
  ["million in words", "3 million", "en", 3000000],
  ["Mio. in German", "3 Mio.", "de", 3000000],
  ["Mrd. in German with a decimal comma", "1,5 Mrd.", "de", 1500000000],
  ["bn for billions", "2.4bn", "en", 2400000000],
  ["a leading minus", "-42", "en", -42],
  ["a Unicode minus", "\u221242,5", "de", -42.5],
  ["accounting parentheses are negative", "(1,234)", "en", -1234],
  ["a trailing minus is negative", "1.234-", "de", -1234],
  ["a range is its first number, not a negative one", "10-20", "en", 10],
  ["words before the number are ignored", "approx. 3,500 visitors", "en", 3500],
  ["a number already a number stays", 42, "en", 42],
];
for (const [name, input, lang, expected] of numbers)
  test(`number: ${name}`, () => assert.equal(parseNumber(input, lang), expected));

const notNumbers = [
  ["text without digits is no number", "n/a"],
  ["an empty cell is no number", ""],
  ["a dash alone is no number", "–"],
];
for (const [name, input] of notNumbers)
  test(`number: ${name}`, () => assert.equal(parseNumber(input, "en"), null));

const booleans = [
  ["yes is true", "Yes", true], ["no is false", "no", false], ["ja is true", "Ja", true],
  ["nein is false", "Nein", false], ["a check mark is true", "✓", true], ["a heavy check mark is true", "✔", true],
  ["a cross is false", "✗", false], ["in stock is true", "In stock", true], ["sold out is false", "Sold out", false],
  ["auf Lager is true", "Auf Lager", true], ["ausverkauft is false", "ausverkauft", false],
  ["oui is true", "oui", true], ["1 is true", "1", true], ["0 is false", "0", false],
  ["a sentence is neither", "maybe later", null],
];
for (const [name, input, expected] of booleans)
  test(`boolean: ${name}`, () => assert.equal(parseBoolean(input), expected));

const dates = [
  ["an ISO date stays", "2024-03-05", "en", "2024-03-05"],
  ["an ISO date-time keeps its day", "2024-03-05T10:20:00Z", "en", "2024-03-05"],
  ["a German dotted date is day first", "05.03.2024", "de", "2024-03-05"],
  ["a US slashed date is month first", "03/05/2024", "en-US", "2024-03-05"],
  ["a British slashed date is day first", "05/03/2024", "en-GB", "2024-03-05"],
  ["a day, month name and year", "5 March 2024", "en", "2024-03-05"],
  ["an American month name first", "March 5, 2024", "en", "2024-03-05"],
  ["an ordinal day", "March 5th, 2024", "en", "2024-03-05"],
  ["a German month name", "5. März 2024", "de", "2024-03-05"],
  ["a French month name", "5 mars 2024", "fr", "2024-03-05"],
  ["an abbreviated month", "5-Mar-2024", "en", "2024-03-05"],
  ["a two-digit year", "05.03.24", "de", "2024-03-05"],
  ["a year first with slashes", "2024/03/05", "en", "2024-03-05"],
  ["an impossible day is no date", "31.02.2024", "de", null],
  ["words are no date", "next Tuesday", "en", null],
];
for (const [name, input, lang, expected] of dates)
  test(`date: ${name}`, () => assert.equal(parseDate(input, lang), expected));

test("date-time: a time is kept when the schema asks for one", () =>
  assert.equal(parseDate("2024-03-05 10:20+0100", "en", true), "2024-03-05T10:20+01:00"));

const scalars = [
  ["an integer field takes the whole population", "1,234,567", { type: "integer" }, "en", 1234567, null],
  ["an integer field rounds a decimal", "12,6", { type: "integer" }, "de", 13, null],
  ["a number field that cannot be read says so", "call us", { type: "number" }, "en", null, "not a number"],
  ["a nullable number field reads its number", "7", { type: ["number", "null"] }, "en", 7, null],
  ["a boolean field reads ja", "ja", { type: "boolean" }, "de", true, null],
  ["a date field is ISO 8601", "5. März 2024", { type: "string", format: "date" }, "de", "2024-03-05", null],
  ["a date field that cannot be read says so", "soon", { type: "string", format: "date" }, "en", null, "not a date"],
  ["a plain string stays as written", "1,234", { type: "string" }, "en", "1,234", null],
];
for (const [name, input, schema, lang, value, problem] of scalars)
  test(`field: ${name}`, () => {
    const r = coerceScalar(input, schema, lang);
    assert.equal(r.value, value);
    assert.equal(r.problem, problem);
  });
