package gsm

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// EventOptions choose where a stream starts and which events it carries.
type EventOptions struct {
	// After is an event id: the stream starts with the events after it (empty: with the events that come next).
	After string
	// Types keeps events of these types (server.status, player.joined, …); empty keeps all.
	Types []string
	// ServerID keeps the events of one server.
	ServerID string
	// ReadTimeout is how long a connection may send nothing before it counts as lost (default 45 s; the service
	// sends a comment line every 15 s).
	ReadTimeout time.Duration
}

// Events calls handle with each of the cluster's events, live, resumed after opts.After and, after every lost
// connection, after the last event handled. It returns when ctx ends (ctx.Err()), when handle answers an error (nil
// for ErrStop), or on an answer that retrying cannot change (an *APIError such as 401 or 404).
func (c *Client) Events(ctx context.Context, clusterID string, opts EventOptions, handle func(Event) error) error {
	query := url.Values{}
	if len(opts.Types) > 0 {
		query.Set("types", strings.Join(opts.Types, ","))
	}
	if opts.ServerID != "" {
		query.Set("serverId", opts.ServerID)
	}
	target := c.BaseURL + PathOf("/api/v1/clusters/{clusterId}/events/stream", "clusterId", clusterID)
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	readTimeout := opts.ReadTimeout
	if readTimeout == 0 {
		readTimeout = 45 * time.Second
	}
	last := opts.After
	first := c.Backoff
	if first <= 0 {
		first = 500 * time.Millisecond
	}
	backoff := first
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		received := false
		err := c.stream(ctx, target, last, readTimeout, func(id string) { last = id }, func(event Event) error {
			received = true
			return handle(event)
		})
		var failure *APIError
		var handler handlerError
		wait := backoff
		switch {
		case errors.Is(err, ErrStop):
			return nil
		case errors.As(err, &handler):
			return handler.err
		case errors.As(err, &failure):
			// 429 and 5xx are passing (an API process restarting, a proxy, a limit): wait as told and connect again.
			if failure.StatusCode < 500 && failure.StatusCode != http.StatusTooManyRequests {
				return err
			}
			if after, given := retryAfter(failure.retryAfter); given {
				wait = after
			}
		case err != nil && !errors.Is(err, errLost):
			return err
		}
		// A stream that ended gets a pause before the next connection, longer while streams end with nothing in them.
		if received {
			backoff, wait = first, first
		} else if backoff *= 2; backoff > maxStreamBackoff {
			backoff = maxStreamBackoff
		}
		if wait > maxStreamBackoff {
			wait = maxStreamBackoff
		}
		if err := sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// maxStreamBackoff is the longest pause between two connections of an event stream.
const maxStreamBackoff = 30 * time.Second

// errLost: the connection failed or ended; Events connects again.
var errLost = errors.New("connection lost")

type handlerError struct{ err error }

func (e handlerError) Error() string { return e.err.Error() }
func (e handlerError) Unwrap() error { return e.err }

// stream reads one connection's events: resume gets each `id:` line (the stream's first comes before any event;
// live-only events have none), handle each event.
func (c *Client) stream(ctx context.Context, target, last string, readTimeout time.Duration, resume func(string), handle func(Event) error) error {
	connection, cancel := context.WithCancel(ctx)
	defer cancel()
	request, err := http.NewRequestWithContext(connection, http.MethodGet, target, nil)
	if err != nil {
		return err
	}
	request.Header.Set("Accept", "text/event-stream")
	if c.Token != "" {
		request.Header.Set("Authorization", "Bearer "+c.Token)
	}
	if last != "" {
		request.Header.Set("Last-Event-ID", last)
	}
	// A connection silent past readTimeout is cut (the service's comment lines would have kept it busy).
	watchdog := time.AfterFunc(readTimeout, cancel)
	defer watchdog.Stop()
	// The stream lasts as long as it lasts: the HTTP client's own time-out (meant for calls) would cut it.
	streaming := *c.httpClient()
	streaming.Timeout = 0
	response, err := streaming.Do(request)
	if err != nil {
		return errLost
	}
	defer response.Body.Close()
	if response.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(response.Body, 64*1024))
		failure := apiError(response.StatusCode, body)
		failure.retryAfter = response.Header.Get("Retry-After")
		return failure
	}
	reader := bufio.NewReader(response.Body)
	var data []string
	blockID := ""
	for {
		line, err := reader.ReadString('\n')
		if err != nil {
			return errLost
		}
		watchdog.Reset(readTimeout)
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "":
			// A block counts once it is whole: a connection cut inside one resumes before it.
			if blockID != "" {
				resume(blockID)
				blockID = ""
			}
			if len(data) > 0 {
				var event Event
				if err := json.Unmarshal([]byte(strings.Join(data, "\n")), &event); err != nil {
					return err
				}
				data = data[:0]
				if err := handle(event); err != nil {
					return handlerError{err}
				}
			}
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		case strings.HasPrefix(line, "id:"):
			blockID = strings.TrimPrefix(strings.TrimPrefix(line, "id:"), " ")
		}
	}
}
