package gsm

// Tests of the Go client. Some run against small local HTTP servers (retries, Retry-After, keys); the others against a
// real service and agent named by GSM_URL, GSM_TOKEN, GSM_CLUSTER_ID and GSM_SERVER_ID (the repository's
// test/clients/languages.test.ts starts them and runs go test; it fails when anything is skipped).

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

type recorded struct {
	method, path, key string
	at                time.Time
}

// stub answers as answer says (nil: the connection is dropped), recording each request.
func stub(t *testing.T, answer func(r *http.Request, count int) *reply) (string, func() []recorded) {
	var mu sync.Mutex
	var requests []recorded
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		requests = append(requests, recorded{r.Method, r.URL.Path, r.Header.Get("Idempotency-Key"), time.Now()})
		count := len(requests)
		mu.Unlock()
		out := answer(r, count)
		if out == nil {
			connection, _, _ := w.(http.Hijacker).Hijack()
			connection.Close()
			return
		}
		for name, value := range out.headers {
			w.Header().Set(name, value)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(out.status)
		if out.body != nil {
			_ = json.NewEncoder(w).Encode(out.body)
		}
	}))
	t.Cleanup(server.Close)
	return server.URL, func() []recorded { mu.Lock(); defer mu.Unlock(); return append([]recorded(nil), requests...) }
}

type reply struct {
	status  int
	headers map[string]string
	body    any
}

func TestRetryAfterAndIdempotencyKey(t *testing.T) {
	base, requests := stub(t, func(r *http.Request, count int) *reply {
		if count == 1 {
			return &reply{429, map[string]string{"Retry-After": "1"}, map[string]any{"statusCode": 429, "message": "Too Many Requests", "error": "Too Many Requests"}}
		}
		return &reply{202, nil, map[string]any{"id": "j1"}}
	})
	var job Job
	if err := New(base, "gsm_live_x").Post(context.Background(), "/api/v1/servers/s/restart", nil, &job); err != nil {
		t.Fatal(err)
	}
	seen := requests()
	if job.ID != "j1" || len(seen) != 2 {
		t.Fatalf("job %q after %d requests", job.ID, len(seen))
	}
	if gap := seen[1].at.Sub(seen[0].at); gap < 950*time.Millisecond {
		t.Fatalf("retried after %v, not the second Retry-After asked for", gap)
	}
	if seen[0].key == "" || seen[1].key != seen[0].key {
		t.Fatalf("keys %q and %q: not the same Idempotency-Key both times", seen[0].key, seen[1].key)
	}
}

func TestNetworkErrorAnd503RetriedNot500Or400(t *testing.T) {
	base, requests := stub(t, func(r *http.Request, count int) *reply {
		switch {
		case strings.HasPrefix(r.URL.Path, "/drop"):
			return nil
		case strings.HasPrefix(r.URL.Path, "/flaky") && count == 1:
			return nil
		case strings.HasPrefix(r.URL.Path, "/flaky") && count == 2:
			return &reply{503, map[string]string{"Retry-After": "0"}, nil}
		case strings.HasPrefix(r.URL.Path, "/flaky"):
			return &reply{200, nil, map[string]bool{"ok": true}}
		case strings.HasPrefix(r.URL.Path, "/bad"):
			return &reply{400, nil, map[string]any{"statusCode": 400, "message": "Validation failed", "error": "Bad Request", "details": []map[string]string{{"field": "name", "message": "Required"}}}}
		}
		return &reply{500, nil, map[string]any{"statusCode": 500, "message": "Internal Server Error", "error": "Internal Server Error"}}
	})
	client := New(base, "")
	client.Backoff = 10 * time.Millisecond
	ctx := context.Background()
	var answer map[string]bool
	if err := client.Get(ctx, "/flaky", nil, &answer); err != nil || !answer["ok"] || len(requests()) != 3 {
		t.Fatalf("flaky: %v %v after %d requests", err, answer, len(requests()))
	}
	var failure *APIError
	if err := client.Get(ctx, "/broken", nil, nil); !errors.As(err, &failure) || failure.StatusCode != 500 || len(requests()) != 4 {
		t.Fatalf("a 500 is not retried: %v after %d requests", err, len(requests()))
	}
	err := client.Post(ctx, "/bad", map[string]string{}, nil)
	if !errors.As(err, &failure) || failure.StatusCode != 400 || failure.Message != "Validation failed" || len(failure.Details) != 1 || failure.Details[0].Field != "name" {
		t.Fatalf("bad: %#v", err)
	}
	if len(requests()) != 5 {
		t.Fatalf("a 400 is not retried: %d requests", len(requests()))
	}
	if err := client.Patch(ctx, "/drop", map[string]string{"name": "x"}, nil); err == nil || len(requests()) != 6 {
		t.Fatalf("a PATCH without a key is not repeated after a dropped connection: %v after %d requests", err, len(requests()))
	}
}

// service answers a client of the service the test runner named, or skips (test/clients/languages.test.ts fails then).
func service(t *testing.T) (*Client, string, string) {
	t.Helper()
	base, token, cluster, server := os.Getenv("GSM_URL"), os.Getenv("GSM_TOKEN"), os.Getenv("GSM_CLUSTER_ID"), os.Getenv("GSM_SERVER_ID")
	if base == "" || token == "" || cluster == "" || server == "" {
		t.Skip("needs a service: GSM_URL, GSM_TOKEN, GSM_CLUSTER_ID, GSM_SERVER_ID")
	}
	return New(base, token), cluster, server
}

func TestRestartAndWait(t *testing.T) {
	client, _, serverID := service(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	job, err := client.Power(ctx, serverID, "restart")
	if err != nil {
		t.Fatal(err)
	}
	done, err := client.WaitForJob(ctx, job.ID)
	if err != nil || done.Status != "SUCCEEDED" {
		t.Fatalf("restart: %v %+v", err, done)
	}
	server, err := client.GetServer(ctx, serverID)
	if err != nil || server.Status != "ONLINE" {
		t.Fatalf("after the restart: %v %+v", err, server)
	}
}

func TestPaginationAndErrors(t *testing.T) {
	client, clusterID, serverID := service(t)
	ctx := context.Background()
	path := PathOf("/api/v1/clusters/{id}/servers", "id", clusterID)
	ids := map[string]bool{}
	count := 0
	if err := Paginate(ctx, client, path, url.Values{"limit": {"1"}}, func(server Server) error { ids[server.ID] = true; count++; return nil }); err != nil {
		t.Fatal(err)
	}
	var first Page[Server]
	if err := client.Get(ctx, path, nil, &first); err != nil {
		t.Fatal(err)
	}
	if count != first.Meta.Total || len(ids) != count || !ids[serverID] {
		t.Fatalf("paginated %d (%d distinct) of %d", count, len(ids), first.Meta.Total)
	}
	var failure *APIError
	_, err := client.GetServer(ctx, "00000000-0000-7000-8000-000000000000")
	if !errors.As(err, &failure) || failure.StatusCode != 404 || failure.Message != "Server not found" || failure.Kind != "Not Found" {
		t.Fatalf("missing server: %#v", err)
	}
	err = client.Post(ctx, path, map[string]string{"name": ""}, nil)
	if !errors.As(err, &failure) || failure.StatusCode != 400 {
		t.Fatalf("invalid server: %#v", err)
	}
	named := false
	for _, detail := range failure.Details {
		named = named || detail.Field == "name"
	}
	if !named {
		t.Fatalf("the 400 does not name the field: %+v", failure.Details)
	}
}

func TestRepeatedPostMakesOneJob(t *testing.T) {
	client, _, serverID := service(t)
	ctx := context.Background()
	key := "go-" + NewKey()
	var first, again Job
	path := PathOf("/api/v1/servers/{id}/start", "id", serverID)
	if err := client.Do(ctx, "POST", path, &Options{Body: struct{}{}, IdempotencyKey: key}, &first); err != nil {
		t.Fatal(err)
	}
	if err := client.Do(ctx, "POST", path, &Options{Body: struct{}{}, IdempotencyKey: key}, &again); err != nil {
		t.Fatal(err)
	}
	if again.ID != first.ID {
		t.Fatalf("two jobs: %s and %s", first.ID, again.ID)
	}
	if _, err := client.WaitForJob(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
}

// proxy forwards to target and can be taken down (every connection cut, none accepted) and up again.
type proxy struct {
	target, addr string
	mu           sync.Mutex
	listener     net.Listener
	open         []net.Conn
}

func (p *proxy) up(t *testing.T) {
	listener, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.listener, p.addr = listener, listener.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			client, err := listener.Accept()
			if err != nil {
				return
			}
			upstream, err := net.Dial("tcp", p.target)
			if err != nil {
				client.Close()
				continue
			}
			p.mu.Lock()
			p.open = append(p.open, client, upstream)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(upstream, client); upstream.Close() }()
			go func() { _, _ = io.Copy(client, upstream); client.Close() }()
		}
	}()
}

func (p *proxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.listener != nil {
		p.listener.Close()
		p.listener = nil
	}
	for _, connection := range p.open {
		connection.Close()
	}
	p.open = nil
}

func TestEventStreamResumesAfterACutConnection(t *testing.T) {
	client, clusterID, serverID := service(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	eventsPath := PathOf("/api/v1/clusters/{id}/events", "id", clusterID)
	query := url.Values{"type": {"server.status"}, "serverId": {serverID}}
	marker := ""
	if err := Paginate(ctx, client, eventsPath, query, func(event Event) error { marker = event.ID; return nil }); err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse(client.BaseURL)
	p := &proxy{target: target.Host, addr: "127.0.0.1:0"}
	p.up(t)
	defer p.down()
	through := New("http://"+p.addr, client.Token)
	through.Backoff = 100 * time.Millisecond
	var mu sync.Mutex
	var seen []Event
	reading, stopReading := context.WithCancel(ctx)
	defer stopReading()
	go func() {
		_ = through.Events(reading, clusterID, EventOptions{After: marker, Types: []string{"server.status"}, ServerID: serverID}, func(event Event) error {
			mu.Lock()
			seen = append(seen, event)
			mu.Unlock()
			return nil
		})
	}()
	power := func(action string) {
		job, err := client.Power(ctx, serverID, action)
		if err == nil {
			job, err = client.WaitForJob(ctx, job.ID)
		}
		if err != nil || job.Status != "SUCCEEDED" {
			t.Fatalf("%s: %v %+v", action, err, job)
		}
	}
	power("stop")
	p.down() // the connection is cut; events happen meanwhile
	power("start")
	p.up(t)
	if marker != "" {
		query.Set("after", marker)
	}
	var expected []string
	if err := Paginate(ctx, client, eventsPath, query, func(event Event) error { expected = append(expected, event.ID); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(expected) < 4 {
		t.Fatalf("expected STOPPING, OFFLINE, STARTING, ONLINE at least: %v", expected)
	}
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		n := len(seen)
		mu.Unlock()
		if n >= len(expected) {
			break
		}
	}
	time.Sleep(300 * time.Millisecond) // anything repeated would arrive now
	mu.Lock()
	defer mu.Unlock()
	var got []string
	for _, event := range seen {
		got = append(got, event.ID)
	}
	if strings.Join(got, ",") != strings.Join(expected, ",") {
		t.Fatalf("every event once, in order:\n got %v\nwant %v", got, expected)
	}
	if status, _ := seen[len(seen)-1].Data["status"].(string); status != "ONLINE" {
		t.Fatalf("last status %q", status)
	}
}

func TestSignInPostsAreNotRepeated(t *testing.T) {
	base, requests := stub(t, func(r *http.Request, count int) *reply { return nil })
	client := New(base, "")
	client.Backoff = 10 * time.Millisecond
	if err := client.Post(context.Background(), "/api/v1/auth/refresh", map[string]string{"refreshToken": "x"}, nil); err == nil {
		t.Fatal("a dropped answer is an error")
	}
	if seen := requests(); len(seen) != 1 || seen[0].key != "" {
		t.Fatalf("a sign-in POST was sent %d times (key %q): a repeated refresh would spend its token twice", len(seen), seen[0].key)
	}
}

func TestWaitForJobKeepsToItsDeadlineWithoutFlooding(t *testing.T) {
	// The stub holds each poll for the wait asked (at most 2 s), as the service does.
	base, requests := stub(t, func(r *http.Request, count int) *reply {
		if wait, _ := time.ParseDuration(r.URL.Query().Get("wait") + "s"); wait > 0 {
			time.Sleep(minDuration(wait, 2*time.Second))
		}
		return &reply{200, nil, map[string]any{"id": "j", "status": "RUNNING"}}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 1900*time.Millisecond)
	defer cancel()
	if _, err := New(base, "").WaitForJob(ctx, "j"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("after the deadline: %v", err)
	}
	if n := len(requests()); n > 3 {
		t.Fatalf("%d polls in 1.9 s: the last second flooded the service", n)
	}
}

func minDuration(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}

func TestEventsRetryA503AndResumeFromTheFirstIDLine(t *testing.T) {
	var mu sync.Mutex
	var lastEventIDs []string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		lastEventIDs = append(lastEventIDs, r.Header.Get("Last-Event-ID"))
		count := len(lastEventIDs)
		mu.Unlock()
		switch count {
		case 1: // a passing outage
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(503)
		case 2: // the resume point, then the connection is cut before any event
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, ": connected\n\nid: 0000000000000007\n\n")
		default: // resumed after 7: the event that came meanwhile, and a partial block cut off
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "id: 0000000000000008\nevent: machine.status\ndata: {\"id\":\"0000000000000008\",\"type\":\"machine.status\",\"clusterId\":\"c\",\"at\":\"2026-01-01T00:00:00.000Z\",\"data\":{}}\n\nid: 0000000000000009\ndata: {\"id\":")
		}
	}))
	defer server.Close()
	client := New(server.URL, "")
	client.Backoff = 10 * time.Millisecond
	var got []string
	err := client.Events(context.Background(), "c", EventOptions{}, func(event Event) error {
		got = append(got, event.ID)
		if len(got) == 2 {
			return ErrStop
		}
		return nil
	})
	if err != nil || strings.Join(got, ",") != "0000000000000008,0000000000000008" {
		t.Fatalf("events %v, err %v", got, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"", "", "0000000000000007", "0000000000000008"}; strings.Join(lastEventIDs[:4], ",") != strings.Join(want, ",") {
		t.Fatalf("Last-Event-ID sent %q, want %q (a cut block must not move the resume point)", lastEventIDs, want)
	}
}
