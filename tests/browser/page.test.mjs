// Drives ransom's web page in headless Chromium, as a user would:
// load a Hostage FEN with airfields and prisons, check that they are drawn,
// ask for a mate, step through the solution, play a move by clicking, use
// the promotion chooser, check that a new position clears a mate result and
// that a mate length of 0 is refused, walk the explorer over a store where
// 1.e4 is proved and a search of 1.b4 is checkpointed (results, proof
// sizes, replies, the path back up, the running search's numbers), see the
// engine's evaluation shown by default, load the page on a 390 px phone
// screen, and write screenshots. Usage: node page.test.mjs BASE_URL SCREENSHOT_PATH
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
  // The variant's start position loads first (its FEN has holdings in
  // brackets); typing before it arrives would be overwritten.
  await page.waitForFunction(() => document.getElementById("fen-input").value.includes("["));
  await page.fill("#fen-input", HOSTAGE_FEN);
  await page.click("#load-btn");
  await page.waitForFunction((fen) => document.getElementById("fen-input").value === fen, HOSTAGE_FEN);
  await page.waitForSelector("#verdict");
  // The FEN box holds what was typed at once: wait for the new position's
  // holdings to be drawn (the start position's verdict is already there).
  await page.waitForSelector('.holding.airfield[data-side="white"] .man', { timeout: 10000 });

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
  // A mate found before its length is proved shows at once ("proving that
  // none is shorter…"); the stream's final line replaces it.
  await page.waitForFunction(() => !document.getElementById("mate-length").textContent.includes("proving"),
    null, { timeout: 30000 });
  assert.equal(await page.textContent("#mate-verdict"), "mate in 2");
  assert.equal(await page.textContent("#mate-length"), " (shortest, proved)", "the streamed answer's final line");
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

  // A promotion offers a chooser; once a choice is played it disappears.
  await page.selectOption("#variant-select", "chess");
  // The variant's start position loads first; typing before it arrives
  // would be overwritten.
  await page.waitForFunction(() => document.getElementById("fen-input").value.startsWith("rnbqkbnr/pppppppp"));
  await page.fill("#fen-input", "8/P7/8/8/8/8/k7/7K w - - 0 1");
  await page.click("#load-btn");
  await page.waitForFunction(() => document.getElementById("fen-input").value.startsWith("8/P7"));
  await page.click('#board .square[data-square="a7"]');
  await page.click('#board .square[data-square="a8"]');
  await page.waitForSelector("#chooser button");
  assert.equal(await page.isVisible("#chooser"), true, "the chooser shows");
  await page.click('#chooser button[data-uci="a7a8q"]');
  await page.waitForFunction(() => document.getElementById("fen-input").value.startsWith("Q7"));
  assert.equal(await page.isVisible("#chooser"), false, "the chooser is gone after the choice");
  assert.equal(await page.isVisible("#stepper"), false, "no step buttons without a line");

  // A mate result belongs to its position: a new position clears it.
  await page.fill("#fen-input", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
  await page.click("#load-btn");
  await page.waitForFunction(() => document.getElementById("fen-input").value.startsWith("6k1"));
  await page.fill("#mate-max", "1");
  await page.click("#mate-btn");
  await page.waitForSelector("#mate-verdict");
  // The start button, not typed text: the solution's first step may still
  // be loading, and its answer would overwrite a FEN typed meanwhile.
  await page.click("#start-btn");
  await page.waitForFunction(() => document.getElementById("fen-input").value.startsWith("rnbqkbnr"));
  await page.waitForFunction(() => document.getElementById("mate-result").textContent === "",
    null, { timeout: 10000 });
  assert.equal(await page.isVisible("#stepper"), false, "and its step buttons hidden");
  // A maximum of 0 is refused, not searched as 3.
  await page.fill("#mate-max", "0");
  await page.click("#mate-btn");
  assert.match(await page.textContent("#mate-result"), /1 to 12/);

  // Play against the engine: it answers 1.e4 for Black and shows its view.
  await page.fill("#engine-ms", "100");
  await page.selectOption("#engine-side", "black");
  await page.click('#board .square[data-square="e2"]');
  await page.click('#board .square[data-square="e4"]');
  await page.waitForFunction(() => / w /.test(document.getElementById("fen-input").value) &&
    !document.getElementById("fen-input").value.startsWith("rnbqkbnr/pppppppp"));
  // The view shown by default is read again for the new position.
  await page.waitForFunction(() => /depth \d+/.test(document.getElementById("engine").textContent),
    null, { timeout: 10000 });
  await page.selectOption("#engine-side", "");

  // The engine's evaluation shows by default, with its bar.
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector("#eval-bar", { timeout: 15000 });
  assert.match(await page.textContent("#engine"), /depth \d+/, "the engine's view shows unasked");

  // The explorer over the store: 1.e4 is a proved loss for White.
  await page.selectOption("#variant-select", "antichess");
  await page.waitForSelector('#analysis tr.move-row[data-uci="e2e4"]', { timeout: 10000 });
  const e4row = page.locator('#analysis tr.move-row[data-uci="e2e4"]');
  assert.match(await e4row.textContent(), /win/, "after 1.e4 Black wins");
  assert.equal(await e4row.locator("td.res-loss").count(), 1, "coloured as a losing move for White");
  await e4row.click();
  await page.waitForFunction(() => / b /.test(document.getElementById("fen-input").value) &&
    document.getElementById("verdict")?.textContent.includes("store"));
  assert.match(await page.textContent("#verdict"), /black to move: win/);
  assert.match(await page.textContent("#verdict"), /best b5/);
  const first = page.locator("#analysis tr.move-row >> nth=0");
  assert.equal(await first.getAttribute("data-uci"), "b7b5", "the winning move first");
  assert.match(await first.textContent(), /loss/);
  assert.match(await page.textContent("#analysis thead"), /proof size/);
  await first.click();
  await page.waitForFunction(() => document.getElementById("path").textContent.includes("b5"));
  assert.match(await page.textContent("#path"), /start › e4 › b5/);
  assert.match(await page.textContent("#analysis thead"), /reply/, "Black's stored replies");
  // Back up the path to the position after 1.e4.
  await page.click('#path a[data-at="1"]');
  await page.waitForFunction(() => document.getElementById("path").textContent.trim() === "start › e4");
  await page.waitForFunction(() => document.getElementById("verdict")?.textContent.includes("best b5"));
  // The checkpointed search of 1.b4 with its numbers and frontier.
  await page.click('#path a[data-at="0"]');
  await page.waitForSelector('#analysis tr.move-row[data-uci="b2b4"]');
  await page.click('#analysis tr.move-row[data-uci="b2b4"]');
  await page.waitForSelector("#analysis .search", { timeout: 10000 });
  assert.match(await page.textContent("#analysis .search"), /proof of \w+'s win running: pn \d+ dn \d+/);
  assert.ok(await page.locator("#analysis .frontier li").count() > 0, "the frontier is listed");
  assert.match(await page.textContent("#analysis thead"), /pn\/dn/, "open replies with their numbers");
  await page.screenshot({ path: screenshot.replace(/\.png$/, "-explorer.png"), fullPage: true });

  // On a 390 px wide phone screen the whole board shows.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  phone.on("pageerror", (e) => errors.push(String(e)));
  await phone.goto(base, { waitUntil: "load" });
  await phone.waitForSelector("#board .square");
  for (const square of ["a1", "h1", "h8"]) {
    const box = await phone.locator(`#board .square[data-square="${square}"]`).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${square} fits the phone screen: ${JSON.stringify(box)}`);
  }
  const scroll = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scroll <= 390, `no sideways scrolling (${scroll} px wide)`);
  // The explorer on the phone: the proved line, no sideways scrolling.
  await phone.goto(`${base}?variant=antichess&fen=${encodeURIComponent("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1")}`, { waitUntil: "load" });
  await phone.waitForFunction(() => document.getElementById("verdict")?.textContent.includes("best b5"), null, { timeout: 10000 });
  const phoneScroll = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(phoneScroll <= 390, `the explorer fits the phone (${phoneScroll} px wide)`);
  await phone.screenshot({ path: screenshot.replace(/\.png$/, "-phone.png"), fullPage: true });

  assert.deepEqual(errors, [], "no script errors");
  console.log(`ok: page checks passed; screenshot written to ${screenshot}`);
} finally {
  await browser.close();
}
