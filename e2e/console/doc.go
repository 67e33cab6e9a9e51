// Package console_test drives zproxy's browser console (package console)
// in headless Chromium against the real binary with data, on Pebble and on
// DynamoDB Local: it logs in through the page's form, opens every page,
// checks what the DOM shows and saves a screenshot of each
// (CONSOLE_SCREENSHOT_DIR, else a temporary directory).
package console
