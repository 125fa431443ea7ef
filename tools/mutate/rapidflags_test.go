package main

// This package has no properties; the blank import registers rapid's test
// flags here too, so that "go test -run Property ./... -rapid.checks=N"
// runs across the module instead of stopping with "flag provided but not
// defined" in every package without properties.
import _ "pgregory.net/rapid"
