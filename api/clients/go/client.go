// Package gsm is the Go client of the game server manager's REST API: the standard library only.
//
//   - Do, Get, Post, Patch, Delete: one call each; an answer of 400 or more is an *APIError with the API's
//     statusCode, message, error and details.
//   - Retries: 429 waits what Retry-After says (at most MaxRetryWait); network errors and 502/503/504 are retried
//     with a back-off for requests that are safe to repeat: GET, DELETE, and POST, which always carries an
//     Idempotency-Key (made here unless given) so that a repeated POST is answered as the first.
//   - WaitForJob: long-polls GET /jobs/<id>?wait=N until the job has ended.
//   - Paginate: every record of a list, page after page.
//   - Events: the cluster's event stream (Server-Sent Events), reconnecting by itself and resuming after the last
//     event handled, so none is missed or repeated.
package gsm

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Client is a client of one service. Its fields may be changed before the first call.
type Client struct {
	// BaseURL is the service's origin, e.g. https://panel.example.org.
	BaseURL string
	// Token is a user API token (gsm_live_…) or a session access token.
	Token string
	// HTTPClient makes the calls (http.DefaultClient unless set).
	HTTPClient *http.Client
	// Retries is how many attempts follow the first for a retryable failure (default 4).
	Retries int
	// MaxRetryWait is the longest wait for one 429's Retry-After (default 60 s).
	MaxRetryWait time.Duration
	// Backoff is the first wait after a network error or a 5xx, doubled each time (default 500 ms).
	Backoff time.Duration
}

// New answers a client of the service at baseURL with the defaults.
func New(baseURL, token string) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), Token: token, Retries: 4, MaxRetryWait: time.Minute, Backoff: 500 * time.Millisecond}
}

// APIError is an answer of 400 or more, with the API's error record.
type APIError struct {
	StatusCode int
	Message    string
	// Kind is the record's "error" (the status's name, such as "Not Found").
	Kind string
	// Details names the fields a 400 refused.
	Details []ErrorDetailsItem
	// Body is the answer as sent.
	Body []byte
	// retryAfter is the answer's Retry-After header (event streams wait as it says).
	retryAfter string
}

func (e *APIError) Error() string { return fmt.Sprintf("%d %s: %s", e.StatusCode, e.Kind, e.Message) }

// signIn matches the sign-in routes: the service keeps no Idempotency-Key for them (there is no principal yet).
var signIn = regexp.MustCompile(`^/(api/v1/)?auth/`)

// maxRetryAfterSeconds bounds a Retry-After (a year): more would overflow a time.Duration.
const maxRetryAfterSeconds = 365 * 24 * 3600

// FinishedJobStatuses are the statuses of a job that has ended.
var FinishedJobStatuses = map[string]bool{"SUCCEEDED": true, "FAILED": true, "CANCELLED": true, "EXPIRED": true}

// Options are a call's optional parts.
type Options struct {
	Query url.Values
	// Body is sent as JSON.
	Body any
	// IdempotencyKey is sent as Idempotency-Key; a POST gets a new one when it is empty.
	IdempotencyKey string
}

// PathOf fills the {name} placeholders of a document path, escaped: PathOf("/api/v1/servers/{id}", "id", serverID).
// It panics on a name without a value or a placeholder left unfilled, as regexp.MustCompile does on a bad pattern:
// both are mistakes in the calling code, not in the data.
func PathOf(template string, pairs ...string) string {
	if len(pairs)%2 != 0 {
		panic(fmt.Sprintf("gsm.PathOf(%q): %q has no value", template, pairs[len(pairs)-1]))
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		template = strings.ReplaceAll(template, "{"+pairs[i]+"}", url.PathEscape(pairs[i+1]))
	}
	if strings.ContainsAny(template, "{}") {
		panic(fmt.Sprintf("gsm.PathOf: %q has a placeholder left", template))
	}
	return template
}

// NewKey answers a random idempotency key (a version 4 UUID).
func NewKey() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (c *Client) httpClient() *http.Client {
	if c.HTTPClient != nil {
		return c.HTTPClient
	}
	return http.DefaultClient
}

func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// retryAfter is Retry-After as a duration (seconds or an HTTP date); ok is false when absent or unreadable.
func retryAfter(value string) (time.Duration, bool) {
	if value == "" {
		return 0, false
	}
	if seconds, err := strconv.ParseFloat(value, 64); err == nil && !math.IsNaN(seconds) {
		// Clamped so that a huge value ("1e10", "inf") stays a long wait instead of overflowing into a negative one.
		seconds = math.Max(0, math.Min(seconds, maxRetryAfterSeconds))
		return time.Duration(seconds * float64(time.Second)), true
	}
	if at, err := http.ParseTime(value); err == nil {
		if d := time.Until(at); d > 0 {
			return d, true
		}
		return 0, true
	}
	return 0, false
}

// Do makes one call, retrying what may be retried, and decodes the JSON answer into out (when out is not nil).
func (c *Client) Do(ctx context.Context, method, path string, options *Options, out any) error {
	if options == nil {
		options = &Options{}
	}
	method = strings.ToUpper(method)
	target := c.BaseURL + path
	if len(options.Query) > 0 {
		target += "?" + options.Query.Encode()
	}
	var payload []byte
	if options.Body != nil {
		var err error
		if payload, err = json.Marshal(options.Body); err != nil {
			return err
		}
	}
	key := options.IdempotencyKey
	// A POST carries a key: repeating it after a lost answer then cannot make a second job. Sign-in routes (/auth/…)
	// keep no keys: repeating one could spend a refresh token twice, so they are never repeated.
	keyed := method == http.MethodPost && !signIn.MatchString(path)
	if key == "" && keyed {
		key = NewKey()
	}
	safe := method == http.MethodGet || method == http.MethodDelete || keyed // a keyed POST always has its key
	backoffStart := c.Backoff
	if backoffStart <= 0 {
		backoffStart = 500 * time.Millisecond
	}
	backoff := backoffStart
	for attempt := 0; ; attempt++ {
		request, err := http.NewRequestWithContext(ctx, method, target, bytes.NewReader(payload))
		if err != nil {
			return err
		}
		request.Header.Set("Accept", "application/json")
		if c.Token != "" {
			request.Header.Set("Authorization", "Bearer "+c.Token)
		}
		if payload != nil {
			request.Header.Set("Content-Type", "application/json")
		}
		if key != "" {
			request.Header.Set("Idempotency-Key", key)
		}
		status, header, body, err := c.exchange(request)
		if err != nil { // a network error (no answer, or an answer cut short)
			if ctx.Err() != nil || !safe || attempt >= c.Retries {
				return err
			}
			if err := sleep(ctx, backoff); err != nil {
				return err
			}
			backoff *= 2
			continue
		}
		if status < 400 {
			if out == nil || len(body) == 0 {
				return nil
			}
			return json.Unmarshal(body, out)
		}
		if attempt < c.Retries {
			wait, given := retryAfter(header.Get("Retry-After"))
			if !given {
				wait = backoff
			}
			retry := false
			if status == http.StatusTooManyRequests {
				retry = wait <= c.MaxRetryWait
			} else if safe && (status == 502 || status == 503 || status == 504) {
				retry = true
				if wait > c.MaxRetryWait {
					wait = c.MaxRetryWait
				}
			}
			if retry {
				if err := sleep(ctx, wait); err != nil {
					return err
				}
				backoff *= 2
				continue
			}
		}
		return apiError(status, body)
	}
}

// exchange sends the request and reads the whole answer.
func (c *Client) exchange(request *http.Request) (int, http.Header, []byte, error) {
	response, err := c.httpClient().Do(request)
	if err != nil {
		return 0, nil, nil, err
	}
	defer response.Body.Close()
	body, err := io.ReadAll(response.Body)
	return response.StatusCode, response.Header, body, err
}

func apiError(status int, body []byte) *APIError {
	var record Error
	failure := &APIError{StatusCode: status, Message: fmt.Sprintf("HTTP %d", status), Body: body}
	if json.Unmarshal(body, &record) == nil {
		if record.Message != "" {
			failure.Message = record.Message
		}
		failure.Kind = record.Error
		failure.Details = record.Details
	}
	return failure
}

// Get calls GET path with the query and decodes the answer into out.
func (c *Client) Get(ctx context.Context, path string, query url.Values, out any) error {
	return c.Do(ctx, http.MethodGet, path, &Options{Query: query}, out)
}

// Post calls POST path with body as JSON ({} when nil) and decodes the answer into out.
func (c *Client) Post(ctx context.Context, path string, body any, out any) error {
	if body == nil {
		body = struct{}{}
	}
	return c.Do(ctx, http.MethodPost, path, &Options{Body: body}, out)
}

// Patch calls PATCH path with body as JSON and decodes the answer into out.
func (c *Client) Patch(ctx context.Context, path string, body any, out any) error {
	return c.Do(ctx, http.MethodPatch, path, &Options{Body: body}, out)
}

// Delete calls DELETE path and decodes the answer, if any, into out.
func (c *Client) Delete(ctx context.Context, path string, out any) error {
	return c.Do(ctx, http.MethodDelete, path, nil, out)
}

// GetServer answers the server.
func (c *Client) GetServer(ctx context.Context, id string) (*Server, error) {
	var server Server
	return &server, c.Get(ctx, PathOf("/api/v1/servers/{id}", "id", id), nil, &server)
}

// Power asks for START, STOP, RESTART or KILL of a server ("start", "stop", "restart", "kill") and answers the job.
func (c *Client) Power(ctx context.Context, serverID, action string) (*Job, error) {
	var job Job
	return &job, c.Post(ctx, PathOf("/api/v1/servers/{id}/{action}", "id", serverID, "action", strings.ToLower(action)), nil, &job)
}

// WaitForJob waits until the job has ended (long polls of at most 60 s each) and answers it; give ctx a deadline to
// wait less.
func (c *Client) WaitForJob(ctx context.Context, jobID string) (*Job, error) {
	for {
		// At most 60 s a poll, never past ctx's deadline (rounded up, so the last second is one poll, not many),
		// and never as long as the HTTP client's own time-out, which would cut the poll off.
		wait := 60
		if timeout := c.httpClient().Timeout; timeout > 0 {
			if most := int(timeout/time.Second) - 2; most < wait {
				wait = most
			}
		}
		if deadline, ok := ctx.Deadline(); ok {
			if left := int(math.Ceil(time.Until(deadline).Seconds())); left < wait {
				wait = left
			}
		}
		if wait < 1 {
			wait = 1
		}
		var job Job
		if err := c.Get(ctx, PathOf("/api/v1/jobs/{id}", "id", jobID), url.Values{"wait": {strconv.Itoa(wait)}}, &job); err != nil {
			return nil, err
		}
		if FinishedJobStatuses[job.Status] {
			return &job, nil
		}
		if err := ctx.Err(); err != nil {
			return &job, err
		}
		if deadline, ok := ctx.Deadline(); ok && !time.Now().Before(deadline) {
			return &job, context.DeadlineExceeded
		}
	}
}

// Page is one page of a list endpoint.
type Page[T any] struct {
	Data []T `json:"data"`
	Meta struct {
		Total      int `json:"total"`
		Page       int `json:"page"`
		Limit      int `json:"limit"`
		TotalPages int `json:"totalPages"`
	} `json:"meta"`
}

// Paginate calls each with every record of a list endpoint, fetching page after page (limit 100 unless the query
// says); it stops at the first error each answers.
func Paginate[T any](ctx context.Context, c *Client, path string, query url.Values, each func(T) error) error {
	values := url.Values{"limit": {"100"}}
	for name, value := range query {
		values[name] = value
	}
	for page := 1; ; page++ {
		values.Set("page", strconv.Itoa(page))
		var answer Page[T]
		if err := c.Get(ctx, path, values, &answer); err != nil {
			return err
		}
		for _, record := range answer.Data {
			if err := each(record); err != nil {
				return err
			}
		}
		if page >= answer.Meta.TotalPages || len(answer.Data) == 0 {
			return nil
		}
	}
}

// ErrStop, answered by an Events handler, ends the stream without an error.
var ErrStop = errors.New("stop")
