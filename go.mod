module github.com/gcxwire/gcx

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/pkoukk/tiktoken-go v0.1.8
	github.com/pkoukk/tiktoken-go-loader v0.0.2
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/exp v0.0.0-20261113113407-e3970619a1a4
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
	pgregory.net/rapid v1.3.0
)

require (
	github.com/dlclark/regexp2 v1.11.0 // indirect
	github.com/google/uuid v1.3.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
