package tokens

// CL100KLowerBound exposes cl100kLowerBound to the tests of package
// tokens_test.
var CL100KLowerBound = cl100kLowerBound
