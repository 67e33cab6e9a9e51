package console_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"
)

// browser is headless Chromium driven through the DevTools protocol over
// a pipe (--remote-debugging-pipe: commands in on fd 3, replies out on fd
// 4, each a JSON message ended by a NUL byte), so the test needs no
// WebSocket client nor any module beyond the standard library.
type browser struct {
	t       *testing.T
	cmd     *exec.Cmd
	in      *os.File
	mu      sync.Mutex
	next    int
	pending map[int]chan cdpReply
	session string
	done    chan struct{}
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// chromiumPath finds Debian's chromium, skipping the test when it is
// absent outside CI (scripts/install-client-deps.sh installs it).
func chromiumPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed, and CI=true: `make test` (scripts/install-client-deps.sh) installs it")
	}
	t.Skip("chromium is not installed; `make test` installs it (Debian package chromium)")
	return ""
}

// startBrowser starts headless Chromium with one page of width × height.
func startBrowser(t *testing.T, width, height int) *browser {
	path := chromiumPath(t)
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// Not t.TempDir: chromium's helper processes may still write its
	// profile for a moment after it is killed, and TempDir's cleanup
	// fails the test on a directory that is not empty.
	profile, err := os.MkdirTemp("", "zproxy-console-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
		"--user-data-dir="+profile, fmt.Sprintf("--window-size=%d,%d", width, height), "about:blank")
	cmd.ExtraFiles = []*os.File{cmdR, outW} // fd 3 and fd 4
	// Its own process group, so that killing it kills its helpers too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmdR.Close()
	outW.Close()
	b := &browser{t: t, cmd: cmd, in: cmdW, pending: map[int]chan cdpReply{}, done: make(chan struct{})}
	go b.read(bufio.NewReader(outR))
	t.Cleanup(func() {
		cmdW.Close()
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		for i := 0; i < 50; i++ {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("could not remove chromium's profile %s", profile)
	})
	var target struct {
		TargetID string `json:"targetId"`
	}
	b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var att struct {
		SessionID string `json:"sessionId"`
	}
	b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att)
	b.session = att.SessionID
	b.do("Page.enable", nil)
	b.do("Runtime.enable", nil)
	b.do("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false})
	return b
}

func (b *browser) read(r *bufio.Reader) {
	defer close(b.done)
	for {
		msg, err := r.ReadBytes(0)
		if err != nil {
			return
		}
		var m struct {
			ID int `json:"id"`
			cdpReply
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
			continue // an event
		}
		b.mu.Lock()
		ch := b.pending[m.ID]
		delete(b.pending, m.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- m.cdpReply
		}
	}
}

// call sends one command (to the page's session unless session is "")
// and decodes its result into out.
func (b *browser) call(session, method string, params any, out any) {
	b.t.Helper()
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan cdpReply, 1)
	b.pending[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if params == nil {
		msg["params"] = map[string]any{}
	}
	if session != "" {
		msg["sessionId"] = session
	}
	data, _ := json.Marshal(msg)
	if _, err := b.in.Write(append(data, 0)); err != nil {
		b.t.Fatalf("%s: %v", method, err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			b.t.Fatalf("%s: %s", method, r.Error.Message)
		}
		if out != nil {
			if err := json.Unmarshal(r.Result, out); err != nil {
				b.t.Fatalf("%s: %v", method, err)
			}
		}
	case <-b.done:
		b.t.Fatalf("%s: chromium exited", method)
	case <-time.After(60 * time.Second):
		b.t.Fatalf("%s: no reply in 60s", method)
	}
}

func (b *browser) do(method string, params any) { b.t.Helper(); b.call(b.session, method, params, nil) }

// eval runs JavaScript in the page (awaiting a promise) and decodes its
// value into out.
func (b *browser) eval(js string, out any) {
	b.t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	b.call(b.session, "Runtime.evaluate", map[string]any{"expression": js, "returnByValue": true, "awaitPromise": true}, &r)
	if r.ExceptionDetails != nil {
		b.t.Fatalf("%s: %s %s", js, r.ExceptionDetails.Text, r.ExceptionDetails.Exception.Description)
	}
	if out != nil && len(r.Result.Value) > 0 {
		if err := json.Unmarshal(r.Result.Value, out); err != nil {
			b.t.Fatalf("%s: %v (%s)", js, err, r.Result.Value)
		}
	}
}

func (b *browser) navigate(url string) {
	b.t.Helper()
	b.do("Page.navigate", map[string]any{"url": url})
}

// waitFor polls a JavaScript condition until it is true.
func (b *browser) waitFor(what, cond string) {
	b.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var ok bool
		// The page may still be loading: a condition that throws is false.
		b.eval("(() => { try { return !!("+cond+") } catch (e) { return false } })()", &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			var html string
			b.eval("document.body ? document.body.innerText.slice(0, 2000) : ''", &html)
			b.t.Fatalf("waiting for %s (%s): not within 60s; the page says:\n%s", what, cond, html)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// screenshot saves the whole page (up to 4000 pixels tall) as a PNG.
func (b *browser) screenshot(path string) {
	b.t.Helper()
	var size struct {
		W, H float64
	}
	b.eval("({W: document.documentElement.scrollWidth, H: document.documentElement.scrollHeight})", &size)
	var shot struct {
		Data string `json:"data"`
	}
	b.call(b.session, "Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true,
		"clip": map[string]any{"x": 0, "y": 0, "width": size.W, "height": min(size.H, 4000), "scale": 1}}, &shot)
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s", path)
}
