/* numfmt.h - shortest round-trip decimal output for doubles. */
#ifndef BC_NUMFMT_H
#define BC_NUMFMT_H

/* A buffer of this size holds any output of cliFormatDouble. */
#define CLI_NUMFMT_SIZE 32

/* Write into buffer the shortest decimal string that strtod reads back as
 * exactly value, NUL terminated; return its length. Style: plain digits
 * when the decimal exponent e (value = d.ddd x 10^e) is in -5 <= e < 17
 * ("0.001", "123", "-0", "1.5"), otherwise scientific with a signed
 * exponent of at least two digits, as C prints it ("1e-07", "1.25e+300").
 * Every output is a valid JSON number. Non-finite values give "null". */
int cliFormatDouble(double value, char* buffer);

#endif
