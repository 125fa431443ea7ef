package proxy

import (
	"io"
	"slices"
	"sync"
	"time"

	"github.com/gcxwire/gcx/jsonmap"
)

// What the proxy holds is bounded by what its user allows, never by what a
// peer sends [PRX-6] [PRX-9]: the calls it follows per session, the size
// of what it keeps of each, and the bytes of the messages it reads whole
// at once, across every session and both directions.

// DefaultMaxCalls is how many tools/call requests the proxy follows at
// once in one session by default. A call beyond it is refused [PRX-9].
const DefaultMaxCalls = 256

// MaxIDBytes and MaxToolNameBytes bound what the proxy keeps of one call:
// a call whose id (as compact JSON) or tool name is longer is not
// followed, and its result passes untouched [PRX-6]. MCP's tool names
// are at most 128 characters; JSON-RPC ids are short in every client.
const (
	MaxIDBytes       = 256
	MaxToolNameBytes = 512
)

// DefaultMaxBufferedBytes bounds the bytes of the messages the proxy
// holds whole at once, to rewrite them. A message that would go over
// passes untouched, as it arrives, as a message over the limit does: so
// the proxy's memory stays within a small multiple of this, whatever
// number of peers send at once [PRX-9].
const DefaultMaxBufferedBytes = 64 << 20

// budget counts the bytes of messages held whole, across sessions and
// directions. take never waits for room to come (only for an unread
// event it cuts to let go): a message that does not fit passes untouched
// instead. It is spent through accounts, one per owner, so that
// no peer can hold it all and turn GCX1 off for the others [PRX-9]:
//
//   - an owner (a session's results and events, or one request's body)
//     holds at most its share: a quarter of the budget, or one message
//     where that is more;
//   - the hosts' request bodies together hold at most half of it, so that
//     bodies sent slowly leave the results of every session room;
//   - the first OwnBodyBytes of each request's body are its connection's
//     own, outside the budget (bounded by the connection slots), so that
//     a call that size is always read and followed, however short the
//     budget; a longer body is read as it passes (scanstream.go), so that
//     the session an initialize begins is followed all the same.
//
// What a session's event stream holds while its host leaves it unread is
// taken back when the budget is short: an owner that finds no room cuts
// the stream whose host has left an event unread the longest, if for
// UnreadGrace at least, and takes the room it held. So no number of
// unread streams keeps the budget from a session whose host reads.
type budget struct {
	mu     sync.Mutex
	free   int64
	hosts  int64 // what the hosts' bodies hold
	total  int64
	share  int64
	unread []*unread // events being written, the longest waiting first
}

// UnreadGrace is how long an event may wait for its host to read it
// before an owner short of room may cut its stream.
const UnreadGrace = 5 * time.Second

// unread is an event of a stream being written to its host, with what it
// holds of the budget until the write ends.
type unread struct {
	a     *account
	since time.Time
	cut   func() // ends the write, which then returns an error
	done  chan struct{}
	once  sync.Once
}

// writing notes that the account's event is being written to dst, until
// end is called. Only a write that can be cut is noted: dst is the pipe
// to the host's response (http.go), which the cut closes with
// errUnreadCut.
func (a *account) writing(dst io.Writer) *unread {
	c, ok := dst.(interface{ CloseWithError(error) error })
	if !ok {
		return nil
	}
	u := &unread{a: a, cut: func() { c.CloseWithError(errUnreadCut) }, done: make(chan struct{})}
	b := a.b
	b.mu.Lock()
	u.since = time.Now() // under the lock: b.unread stays in order
	b.unread = append(b.unread, u)
	b.mu.Unlock()
	return u
}

// end notes that the write is over and what it held given back.
func (u *unread) end() {
	if u == nil {
		return
	}
	b := u.a.b
	b.mu.Lock()
	if i := slices.Index(b.unread, u); i >= 0 {
		b.unread = slices.Delete(b.unread, i, i+1)
	}
	b.mu.Unlock()
	u.once.Do(func() { close(u.done) })
}

// oldestUnread removes and returns the write waiting the longest, if for
// UnreadGrace at least and not the account's own. b.mu is held.
func (b *budget) oldestUnread(a *account) *unread {
	for i, u := range b.unread {
		if time.Since(u.since) < UnreadGrace {
			return nil // the rest are younger
		}
		if u.a != a {
			b.unread = slices.Delete(b.unread, i, i+1)
			return u
		}
	}
	return nil
}

// OwnBodyBytes is how much of each request's body its connection holds
// outside the shared budget.
const OwnBodyBytes = 64 << 10

// newBudget returns a budget of n bytes for messages of at most
// maxMessage bytes.
func newBudget(n int64, maxMessage int) *budget {
	return &budget{free: n, total: n, share: max(n/4, int64(maxMessage)+readChunk)}
}

// account is what one owner holds of a budget.
type account struct {
	b    *budget
	held int64 // charged to the budget
	own  int64 // held outside it, OwnBodyBytes at most
	host bool  // a request's body
}

// account returns a new owner's account: host for a request's body.
func (b *budget) account(host bool) *account { return &account{b: b, host: host} }

func (a *account) take(n int) bool {
	if a.host && a.own+int64(n) <= OwnBodyBytes {
		a.own += int64(n)
		return true
	}
	b := a.b
	for {
		b.mu.Lock()
		if a.held+int64(n) > b.share || a.host && b.hosts+int64(n) > b.total/2 {
			b.mu.Unlock()
			return false
		}
		if int64(n) <= b.free {
			b.free -= int64(n)
			a.held += int64(n)
			if a.host {
				b.hosts += int64(n)
			}
			b.mu.Unlock()
			return true
		}
		// No room: an event its host has left unread for UnreadGrace
		// gives way. Each turn removes one from b.unread, so this ends.
		u := b.oldestUnread(a)
		b.mu.Unlock()
		if u == nil {
			return false
		}
		u.cut()
		<-u.done
	}
}

// give returns n bytes the account holds: its own first. Only a host's
// account has bytes of its own, and only its request's goroutine uses it;
// a session's is shared by its exchanges, so own is not touched there.
func (a *account) give(n int) {
	if n == 0 {
		return
	}
	rest := int64(n)
	if a.host {
		from := min(rest, a.own)
		a.own -= from
		rest -= from
	}
	if rest == 0 {
		return
	}
	b := a.b
	b.mu.Lock()
	b.free += rest
	a.held -= rest
	if a.host {
		b.hosts -= rest
	}
	b.mu.Unlock()
}

// readChunk is how much of a body readWhole asks the budget for at a time.
const readChunk = 32 << 10

// held is a message read whole, and the budget it holds.
type held struct {
	msg    []byte
	whole  bool // false: msg is only the start, the rest is still in the reader
	budget *account
	n      int
}

// release returns the message's bytes to the budget; msg must no longer
// be used.
func (h *held) release() {
	h.budget.give(h.n)
	h.n = 0
}

// readWhole reads r to its end when it holds at most max bytes and the
// budget lets it hold them. Otherwise whole is false and msg holds what
// was read, which the caller passes on before the rest of r. An error is
// a read error; msg then holds what was read before it.
func readWhole(r io.Reader, max int, b *account) (*held, error) {
	h := &held{budget: b}
	for {
		if len(h.msg) > max {
			return h, nil
		}
		want := min(readChunk, max+1-len(h.msg))
		if !b.take(want) {
			return h, nil
		}
		h.n += want
		h.msg = growTo(h.msg, len(h.msg)+want)
		n, err := io.ReadFull(r, h.msg[len(h.msg):len(h.msg)+want])
		h.msg = h.msg[:len(h.msg)+n]
		b.give(want - n)
		h.n -= want - n
		switch err {
		case nil:
			continue
		case io.EOF, io.ErrUnexpectedEOF:
			h.whole = len(h.msg) <= max
			return h, nil
		default:
			return h, err
		}
	}
}

// growTo returns b with room for n bytes, doubling as append does so that
// reading a message costs linear time.
func growTo(b []byte, n int) []byte {
	if cap(b) >= n {
		return b
	}
	c := make([]byte, len(b), max(n, 2*cap(b)))
	copy(c, b)
	return c
}

// idScanner finds the id of a JSON-RPC message that passes untouched
// because it is over the limit, reading it piece by piece as it passes
// and keeping no more than a short id, so that the call it answers leaves
// the table [PRX-6]. It reads the members of the top-level object only.
type idScanner struct {
	depth    int
	inString bool
	escaped  bool
	// At depth 1: the key just read, whether a value follows it, and the
	// raw bytes of the id member's value while it is read.
	key, id    []byte
	keyTooLong bool
	inKey      bool
	inID       bool
	idTooLong  bool
	haveID     bool
	afterColon bool
	sawObject  bool
	isResponse bool
}

func (s *idScanner) write(p []byte) {
	for _, c := range p {
		s.step(c)
	}
}

func (s *idScanner) step(c byte) {
	if s.inID {
		s.idByte(c)
		if s.inID {
			return
		}
		if s.inString || c == '"' {
			return // the id was a string: its closing quote is consumed
		}
	}
	if s.inString {
		if s.inKey && !s.keyTooLong {
			if len(s.key) < 16 {
				s.key = append(s.key, c)
			} else {
				s.keyTooLong = true
			}
		}
		if s.closesString(c) && s.inKey {
			s.inKey = false
			s.key = s.key[:len(s.key)-1] // the closing quote
		}
		return
	}
	switch c {
	case '"':
		s.inString = true
		if s.depth == 1 && !s.afterColon {
			s.inKey, s.key, s.keyTooLong = true, s.key[:0], false
		}
	case ':':
		if s.depth == 1 {
			s.afterColon = true
			k := s.keyText()
			switch k {
			case "id":
				s.inID, s.id, s.idTooLong = true, s.id[:0], false
			case "result", "error":
				s.isResponse = true
			}
		}
	case ',':
		if s.depth == 1 {
			s.afterColon = false
		}
	case '{', '[':
		if s.depth == 0 && c == '{' {
			s.sawObject = true
		}
		s.depth++
	case '}', ']':
		s.depth--
	}
}

// idByte takes one byte of the id's value: white space before it, then a
// string (with its quotes) or a number, true, false or null.
func (s *idScanner) idByte(c byte) {
	if len(s.id) == 0 && (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
		return
	}
	if len(s.id) == 0 && (c == '{' || c == '[') {
		// No JSON-RPC id: the value is left to the outer reading.
		s.inID, s.haveID = false, false
		return
	}
	if len(s.id) == 0 && c == '"' {
		s.inString = true
	} else if s.inString {
		if s.closesString(c) {
			s.addID(c)
			s.endID()
			return
		}
	} else if c == ',' || c == '}' || c == ' ' || c == '\t' || c == '\r' || c == '\n' {
		s.endID()
		return
	}
	s.addID(c)
}

// closesString takes a byte inside a string and reports whether it is
// the quote that ends it.
func (s *idScanner) closesString(c byte) bool {
	switch {
	case s.escaped:
		s.escaped = false
	case c == '\\':
		s.escaped = true
	case c == '"':
		s.inString = false
		return true
	}
	return false
}

func (s *idScanner) addID(c byte) {
	if len(s.id) < MaxIDBytes*2 {
		s.id = append(s.id, c)
	} else {
		s.idTooLong = true
	}
}

func (s *idScanner) endID() {
	s.inID = false
	s.haveID = !s.idTooLong && len(s.id) > 0
}

// keyText returns the key just read, its escapes decoded.
func (s *idScanner) keyText() string {
	if s.keyTooLong {
		return ""
	}
	for _, c := range s.key {
		if c == '\\' {
			v, err := jsonmap.Parse(append(append([]byte{'"'}, s.key...), '"'))
			if err != nil || v.Kind != jsonmap.String {
				return ""
			}
			return v.Text
		}
	}
	return string(s.key)
}

// responseID returns the key of the call a whole message answered: its id
// as idKey writes it, when the message was an object with an id and a
// result or an error.
func (s *idScanner) responseID() (string, bool) {
	if !s.sawObject || !s.isResponse || !s.haveID {
		return "", false
	}
	v, err := jsonmap.Parse(s.id)
	if err != nil {
		return "", false
	}
	return idKey(v), true
}
