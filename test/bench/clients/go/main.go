// The Go half of `npm run bench -- clients`: requests/s of GET <path> through the Go client (GetServer) beside a raw
// net/http loop doing the same request, LOOPS goroutines each, ROUNDS interleaved rounds of DURATION seconds. Prints
// one JSON line: {"raw": [...], "client": [...]} (requests/s per round).
// Usage: go run . <base-url> <token> <server-id> <loops> <rounds> <duration-seconds>
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"gsm"
)

func main() {
	base, token, serverID := os.Args[1], os.Args[2], os.Args[3]
	loops, _ := strconv.Atoi(os.Args[4])
	rounds, _ := strconv.Atoi(os.Args[5])
	seconds, _ := strconv.ParseFloat(os.Args[6], 64)
	http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = loops
	client := gsm.New(base, token)
	ctx := context.Background()
	raw := func() error {
		request, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/v1/servers/"+serverID, nil)
		request.Header.Set("Authorization", "Bearer "+token)
		request.Header.Set("Accept", "application/json")
		response, err := http.DefaultClient.Do(request)
		if err != nil {
			return err
		}
		defer response.Body.Close()
		body, err := io.ReadAll(response.Body)
		if err != nil {
			return err
		}
		if response.StatusCode != http.StatusOK {
			return fmt.Errorf("HTTP %d", response.StatusCode)
		}
		var server gsm.Server
		return json.Unmarshal(body, &server)
	}
	throughClient := func() error { _, err := client.GetServer(ctx, serverID); return err }
	run := func(call func() error, seconds float64) float64 {
		end := time.Now().Add(time.Duration(seconds * float64(time.Second)))
		var done int64
		var wg sync.WaitGroup
		for i := 0; i < loops; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Now().Before(end) {
					if err := call(); err != nil {
						fmt.Fprintln(os.Stderr, err)
						os.Exit(1)
					}
					atomic.AddInt64(&done, 1)
				}
			}()
		}
		wg.Wait()
		return float64(done) / seconds
	}
	type target struct {
		name string
		call func() error
	}
	targets := []target{{"raw", raw}, {"client", throughClient}}
	for _, t := range targets {
		run(t.call, 1) // warm-up
	}
	results := map[string][]float64{"raw": {}, "client": {}}
	for round := 0; round < rounds; round++ {
		order := targets
		if round%2 == 1 {
			order = []target{targets[1], targets[0]}
		}
		for _, t := range order {
			results[t.name] = append(results[t.name], run(t.call, seconds))
		}
	}
	out, _ := json.Marshal(results)
	fmt.Println(string(out))
}
