package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gcxwire/gcx/bench/scorecard"
	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
	"github.com/gcxwire/gcx/jsonmap"
)

// proxyParts returns the rows that take the proxy's answer to a tools/call
// result apart, each part against the mapping of the result's text, so
// that the table shows where the proxy's time beyond the mapping goes:
//
//   - reading the message (binding.ReadResponse) without structuredContent:
//     its tokens, the text's escapes resolved, the text's JSON parsed,
//     which the mapping parses too;
//   - reading it whole: structuredContent compared with the text's value
//     as it is read, never built;
//   - the decision in mode gcx: the payload encoded from the parsed value;
//   - the decision in auto mode: the payload, then the three forms weighed
//     in tokens;
//   - writing the answer: the payload spliced into the message;
//   - the proxy's whole answer in auto mode.
func proxyParts(cases []scorecard.Case) ([]row, error) {
	var rows []row
	for _, c := range cases {
		msg := toolResult(c)
		noStructured, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{
			"content": []any{map[string]any{"type": "text", "text": string(c.Pretty)}},
		}})
		if err != nil {
			return nil, err
		}
		resp, ok := binding.ReadResponse(msg)
		if !ok {
			return nil, fmt.Errorf("%s: binding.ReadResponse leaves the message to the tree", c.Name)
		}
		decide := map[binding.Mode]func() (binding.Decision, error){}
		for _, mode := range []binding.Mode{binding.ModeGCX, binding.ModeAuto} {
			p, err := binding.NewIntermediary(binding.ServerOptions{Mode: mode})
			if err != nil {
				return nil, err
			}
			call := p.Call(binding.Session{}, c.Tool, binding.Said{}, binding.Said{})
			decide[mode] = func() (binding.Decision, error) {
				d := p.Decide(call, resp.Result)
				if !d.Answered {
					return d, fmt.Errorf("%s: not answered (%s)", c.Name, d.Why)
				}
				return d, nil
			}
		}
		d, err := decide[binding.ModeGCX]()
		if err != nil {
			return nil, err
		}
		auto, err := proxyAnswerMode(c, binding.ModeAuto)
		if err != nil {
			return nil, err
		}
		mapping := side{"the mapping: jsonmap.Encode of the text", func() error {
			_, err := jsonmap.Encode(c.Tool, c.Pretty)
			return err
		}}
		input := c.Name + ", " + fmt.Sprintf("%.1f kB", float64(len(msg))/1000) + " message"
		part := func(name string, run func() error) row {
			return row{path: "proxy, part: " + name, input: input, bytes: len(msg), subject: side{name, run}, against: mapping}
		}
		rows = append(rows,
			part("read the message, no structuredContent", func() error {
				if _, ok := binding.ReadResponse(noStructured); !ok {
					return fmt.Errorf("not read")
				}
				return nil
			}),
			part("read the message, structuredContent compared", func() error {
				if _, ok := binding.ReadResponse(msg); !ok {
					return fmt.Errorf("not read")
				}
				return nil
			}),
			part("decide in mode gcx: the payload", func() error { _, err := decide[binding.ModeGCX](); return err }),
			part("decide in auto mode: payload, three forms weighed", func() error { _, err := decide[binding.ModeAuto](); return err }),
			part("write the answer: payload spliced in", func() error {
				if len(resp.Apply(d.Answer)) == 0 {
					return fmt.Errorf("nothing written")
				}
				return nil
			}),
			row{path: "proxy, auto", input: input, bytes: len(msg), subject: side{"the proxy's answer", auto}, against: mapping})
	}
	return rows, nil
}

// proxyAnswerMode is proxyAnswer in the mode given: the answer is any the
// binding makes (GCX1 or compact JSON in auto mode), so that the message
// must change.
func proxyAnswerMode(c scorecard.Case, mode binding.Mode) (func() error, error) {
	p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: mode}})
	if err != nil {
		return nil, err
	}
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + c.Tool + `","arguments":{}}}`)
	result := toolResult(c)
	return func() error {
		p.FromHost(call)
		if out := p.FromUpstream(result); bytes.Equal(out, result) {
			return fmt.Errorf("the proxy did not answer")
		}
		return nil
	}, nil
}
