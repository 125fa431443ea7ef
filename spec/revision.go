package spec

// Revision is the revision of docs/wire-format.md this module implements;
// CHANGELOG.md lists what each revision changed.
const Revision = "1.5"
