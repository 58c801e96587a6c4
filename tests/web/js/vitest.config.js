// The browser client's logic, tested in jsdom: the modules under
// src/meio/web/static/js, imported as the browser imports them (no build step).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { environment: "jsdom", include: ["*.test.js"] },
});
