// Drives ransom's web page in headless Chromium, as a user would:
// load a Hostage FEN with airfields and prisons, check that they are drawn,
// ask for a mate, step through the solution, play a move by clicking, and
// write a screenshot. Usage: node page.test.mjs BASE_URL SCREENSHOT_PATH
import { chromium } from "playwright-core";
import assert from "node:assert/strict";

const [base, screenshot] = process.argv.slice(2);
if (!base || !screenshot) {
  console.error("usage: node page.test.mjs BASE_URL SCREENSHOT_PATH");
  process.exit(2);
}

// RULES H11: airfield R (White), prisons: White's bishop and knight held by
// Black, Black's bishop held by White. Mate in 2 with an exchange-drop key.
const HOSTAGE_FEN = "5Brk/8/8/8/8/2K3N1/8/8[R#BNb] w - - 0 1";

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const errors = [];
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });

  await page.goto(base, { waitUntil: "load" });
  await page.waitForSelector("#board .square", { timeout: 10000 });
  assert.equal(await page.locator("#board .square").count(), 64, "64 squares");

  // Enter the Hostage position.
  await page.selectOption("#variant-select", "hostage");
  await page.fill("#fen-input", HOSTAGE_FEN);
  await page.click("#load-btn");
  await page.waitForFunction((fen) => document.getElementById("fen-input").value === fen, HOSTAGE_FEN);
  await page.waitForSelector("#verdict");

  // Prisons and airfields are drawn with their men.
  const men = async (side, kind) =>
    page.locator(`.holding.${kind}[data-side="${side}"] .man`).allTextContents();
  assert.equal((await men("white", "airfield")).length, 1, "White's airfield holds a rook");
  assert.equal((await men("white", "prison")).length, 1, "White's prison holds a black bishop");
  assert.equal((await men("black", "prison")).length, 2, "Black's prison holds White's bishop and knight");
  assert.equal((await men("black", "airfield")).length, 0, "Black's airfield is empty");
  assert.equal(await page.locator('#board .square[data-square="f8"] .piece.white').count(), 1);

  // Ask for a mate and step through the solution.
  await page.fill("#mate-max", "3");
  await page.click("#mate-btn");
  await page.waitForSelector("#mate-verdict", { timeout: 30000 });
  assert.equal(await page.textContent("#mate-verdict"), "mate in 2");
  assert.match(await page.textContent("#mate-tree"), /N\*f7/);
  const fens = [await page.inputValue("#fen-input")];
  for (let i = 1; i <= 3; i++) {
    await page.click("#step-next");
    await page.waitForFunction((n) => document.getElementById("step-info").textContent.startsWith(`${n}/3`), i);
    await page.waitForFunction((prev) => document.getElementById("fen-input").value !== prev, fens[fens.length - 1]);
    fens.push(await page.inputValue("#fen-input"));
  }
  assert.equal(new Set(fens).size, 4, "each step shows a new position");
  await page.waitForSelector("#verdict");
  assert.match(await page.textContent("#verdict"), /loss/, "the final position is lost for Black (checkmate)");
  await page.screenshot({ path: screenshot, fullPage: true });

  await page.click("#step-first");
  await page.waitForFunction((fen) => document.getElementById("fen-input").value === fen, HOSTAGE_FEN);

  // Play a move by clicking: 1.e4 in standard chess.
  await page.selectOption("#variant-select", "chess");
  await page.waitForFunction(() => document.getElementById("fen-input").value.startsWith("rnbqkbnr/pppppppp"));
  await page.click('#board .square[data-square="e2"]');
  await page.click('#board .square[data-square="e4"]');
  await page.waitForFunction(() => document.getElementById("fen-input").value.includes("4P3"));

  // Browse the puzzles and open one.
  await page.selectOption("#set-select", "hostage-mates");
  await page.waitForSelector("#puzzle-list li");
  await page.click("#puzzle-list li >> nth=0");
  await page.waitForFunction(() => document.getElementById("variant-select").value === "hostage");
  await page.waitForSelector("#stepper:not([hidden])");

  assert.deepEqual(errors, [], "no script errors");
  console.log(`ok: page checks passed; screenshot written to ${screenshot}`);
} finally {
  await browser.close();
}
