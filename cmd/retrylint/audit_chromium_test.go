package main_test

// A minimal client of the Chrome DevTools Protocol over a WebSocket
// (RFC 6455, client side: masked text frames out, unmasked frames in), to
// open the HTML report in headless Chromium and observe what the page does:
// console messages, exceptions and CSP reports, network requests, layout,
// timing, and a screenshot.

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// findChromium returns the browser to use, or skips the test.
func findChromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("RETRYLINT_E2E") == "1" {
		t.Fatal("RETRYLINT_E2E=1 but no chromium is installed (apt-get install -y chromium)")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium); set RETRYLINT_E2E=1 to require it")
	return ""
}

type cdpBrowser struct {
	conn    net.Conn
	r       *bufio.Reader
	mu      sync.Mutex
	nextID  int
	replies map[int]chan json.RawMessage
	events  chan cdpEvent
}

type cdpEvent struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// startChromium starts headless Chromium with a fresh profile and no
// background traffic, and connects to its first page.
func startChromium(t *testing.T, browser string) *cdpBrowser {
	t.Helper()
	// The profile is removed once every process of the browser is gone:
	// t.TempDir's cleanup could run while a renderer still writes to it.
	profile, err := os.MkdirTemp("", "retrylint-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(browser,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--user-data-dir="+profile, "--remote-debugging-port=0",
		"--window-size=1400,900", "about:blank")
	ownGroup(cmd)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		killGroup(cmd)
		cmd.Wait()
		// A process of the group may take a moment to die.
		for i := 0; os.RemoveAll(profile) != nil && i < 50; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	found := make(chan string, 1)
	var logged bytes.Buffer
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
		for sc.Scan() {
			logged.WriteString(sc.Text() + "\n")
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	var wsURL string
	select {
	case wsURL = <-found:
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not start its DevTools server in 60s", browser)
	}
	u, err := url.Parse(wsURL)
	if err != nil {
		t.Fatal(err)
	}
	// The first page target.
	var targets []struct {
		Type, URL            string
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	for start := time.Now(); time.Since(start) < 30*time.Second; time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get("http://" + u.Host + "/json/list")
		if err != nil {
			continue
		}
		json.NewDecoder(resp.Body).Decode(&targets)
		resp.Body.Close()
		if len(targets) > 0 {
			break
		}
	}
	page := ""
	for _, tg := range targets {
		if tg.Type == "page" {
			page = tg.WebSocketDebuggerURL
			break
		}
	}
	if page == "" {
		t.Fatalf("no page target among %+v", targets)
	}
	b, err := dialCDP(page)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.conn.Close() })
	return b
}

// dialCDP opens the WebSocket of a DevTools target.
func dialCDP(wsURL string) (*cdpBrowser, error) {
	u, err := url.Parse(wsURL)
	if err != nil {
		return nil, err
	}
	conn, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		return nil, err
	}
	keyBytes := make([]byte, 16)
	rand.Read(keyBytes)
	key := base64.StdEncoding.EncodeToString(keyBytes)
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", u.RequestURI(), u.Host, key)
	r := bufio.NewReaderSize(conn, 1<<16)
	resp, err := http.ReadResponse(r, &http.Request{Method: "GET"})
	if err != nil {
		conn.Close()
		return nil, err
	}
	sum := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		conn.Close()
		return nil, fmt.Errorf("websocket handshake: %s", resp.Status)
	}
	b := &cdpBrowser{conn: conn, r: r, replies: map[int]chan json.RawMessage{}, events: make(chan cdpEvent, 4096)}
	go b.readLoop()
	return b, nil
}

// writeFrame sends one masked text frame.
func (b *cdpBrowser) writeFrame(opcode byte, payload []byte) error {
	var hdr []byte
	hdr = append(hdr, 0x80|opcode)
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	mask := make([]byte, 4)
	rand.Read(mask)
	hdr = append(hdr, mask...)
	masked := make([]byte, len(payload))
	for i, c := range payload {
		masked[i] = c ^ mask[i%4]
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_, err := b.conn.Write(append(hdr, masked...))
	return err
}

// readMessage reads one message, joining continuation frames and
// answering pings.
func (b *cdpBrowser) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(b.r, h[:]); err != nil {
			return nil, err
		}
		fin, opcode := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var e [2]byte
			if _, err := io.ReadFull(b.r, e[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(e[:]))
		case 127:
			var e [8]byte
			if _, err := io.ReadFull(b.r, e[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(e[:])
		}
		var mask [4]byte
		if h[1]&0x80 != 0 {
			if _, err := io.ReadFull(b.r, mask[:]); err != nil {
				return nil, err
			}
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(b.r, payload); err != nil {
			return nil, err
		}
		if h[1]&0x80 != 0 {
			for i := range payload {
				payload[i] ^= mask[i%4]
			}
		}
		switch opcode {
		case 0x8:
			return nil, io.EOF
		case 0x9:
			b.writeFrame(0xA, payload)
			continue
		case 0xA:
			continue
		}
		msg = append(msg, payload...)
		if fin {
			return msg, nil
		}
	}
}

func (b *cdpBrowser) readLoop() {
	for {
		data, err := b.readMessage()
		if err != nil {
			close(b.events)
			return
		}
		var m struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
			cdpEvent
		}
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.replies[m.ID]
			delete(b.replies, m.ID)
			b.mu.Unlock()
			if ch != nil {
				if m.Error != nil {
					ch <- json.RawMessage(`{"__error":` + string(m.Error) + `}`)
				} else {
					ch <- m.Result
				}
			}
			continue
		}
		select {
		case b.events <- m.cdpEvent:
		default: // a flood of events the test does not read
		}
	}
}

// call sends a command and waits for its result.
func (b *cdpBrowser) call(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan json.RawMessage, 1)
	b.replies[id] = ch
	b.mu.Unlock()
	if params == nil {
		params = map[string]any{}
	}
	data, _ := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err := b.writeFrame(0x1, data); err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-ch:
		if bytes.HasPrefix(res, []byte(`{"__error":`)) {
			t.Fatalf("%s: %s", method, res)
		}
		return res
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: no answer in 60s", method)
	}
	return nil
}

type pageLoad struct {
	loadMS, wallMS float64
	console        []string // errors and warnings: console, exceptions, log entries (CSP)
	requests       []string // URLs the page requested
	metrics        map[string]float64
}

// open loads url in a window of the given size and returns what the page
// did until its load event and a moment after.
func (b *cdpBrowser) open(t *testing.T, pageURL string, width, height int) pageLoad {
	t.Helper()
	for _, domain := range []string{"Page", "Runtime", "Log", "Network", "Performance"} {
		b.call(t, domain+".enable", nil)
	}
	b.call(t, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false})
	var res pageLoad
	start := time.Now()
	b.call(t, "Page.navigate", map[string]any{"url": pageURL})
	loaded := false
	settle := time.After(90 * time.Second)
	var quiet <-chan time.Time
	for done := false; !done; {
		select {
		case e, ok := <-b.events:
			if !ok {
				t.Fatal("the browser closed the connection")
			}
			switch e.Method {
			case "Page.loadEventFired":
				if !loaded {
					loaded = true
					res.wallMS = float64(time.Since(start).Microseconds()) / 1000
					quiet = time.After(500 * time.Millisecond) // what the page does right after
				}
			case "Network.requestWillBeSent":
				var p struct{ Request struct{ URL string } }
				json.Unmarshal(e.Params, &p)
				res.requests = append(res.requests, p.Request.URL)
			case "Runtime.consoleAPICalled":
				var p struct {
					Type string
					Args []struct {
						Value       any
						Description string
					}
				}
				json.Unmarshal(e.Params, &p)
				if p.Type == "error" || p.Type == "warning" || p.Type == "assert" {
					var parts []string
					for _, a := range p.Args {
						parts = append(parts, fmt.Sprint(a.Value, a.Description))
					}
					res.console = append(res.console, p.Type+": "+strings.Join(parts, " "))
				}
			case "Runtime.exceptionThrown":
				res.console = append(res.console, "exception: "+string(e.Params))
			case "Log.entryAdded":
				var p struct {
					Entry struct{ Level, Source, Text, URL string }
				}
				json.Unmarshal(e.Params, &p)
				if p.Entry.Level == "error" || p.Entry.Level == "warning" {
					res.console = append(res.console, fmt.Sprintf("%s (%s): %s %s", p.Entry.Level, p.Entry.Source, p.Entry.Text, p.Entry.URL))
				}
			}
		case <-quiet:
			done = true
		case <-settle:
			t.Fatalf("the page did not load in 90s")
		}
	}
	var timing struct {
		Result struct{ Value float64 }
	}
	json.Unmarshal(b.call(t, "Runtime.evaluate", map[string]any{
		"expression":    `(function(){var n=performance.getEntriesByType("navigation")[0];return n.loadEventEnd-n.startTime;})()`,
		"returnByValue": true,
	}), &timing)
	res.loadMS = timing.Result.Value
	var metrics struct {
		Metrics []struct {
			Name  string
			Value float64
		}
	}
	json.Unmarshal(b.call(t, "Performance.getMetrics", nil), &metrics)
	res.metrics = map[string]float64{}
	for _, m := range metrics.Metrics {
		res.metrics[m.Name] = m.Value
	}
	return res
}

// eval evaluates a JavaScript expression that returns a string.
func (b *cdpBrowser) eval(t *testing.T, expr string) string {
	t.Helper()
	var r struct {
		Result           struct{ Value any }
		ExceptionDetails *struct {
			Text      string
			Exception struct{ Description string }
		}
	}
	if err := json.Unmarshal(b.call(t, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}), &r); err != nil {
		t.Fatal(err)
	}
	if r.ExceptionDetails != nil {
		t.Fatalf("evaluation failed: %s %s", r.ExceptionDetails.Text, r.ExceptionDetails.Exception.Description)
	}
	s, _ := r.Result.Value.(string)
	return s
}

// screenshot captures the viewport as PNG.
func (b *cdpBrowser) screenshot(t *testing.T) []byte {
	t.Helper()
	var r struct{ Data string }
	if err := json.Unmarshal(b.call(t, "Page.captureScreenshot", map[string]any{"format": "png"}), &r); err != nil {
		t.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		t.Fatal(err)
	}
	return png
}
