import { describe, expect, it } from "vitest";
import { tabCue } from "../../../src/meio/web/static/js/table/cues.js";
import { fillText } from "../../../src/meio/web/static/js/table/door.js";

describe("turn cues", () => {
  it("mark the tab only while it is hidden and it is your turn, and undo it", () => {
    const on = tabCue(true, true, "MEIO — table");
    expect(on.title).toBe("● Your turn — MEIO — table");
    expect(on.icon).toMatch(/^data:image\/svg\+xml,/);
    expect(tabCue(false, true, on.title)).toEqual({ title: "MEIO — table", icon: "data:," });
    expect(tabCue(true, false, on.title).title).toBe("MEIO — table");
  });

  it("count quick play's wait down in seconds", () => {
    expect(fillText({ fill_at: 100 }, 88_400)).toBe("Bots take the free seats in 12 s.");
    expect(fillText({ fill_at: 100 }, 120_000)).toBe("Bots take the free seats in 0 s.");
  });
});
