/* table_xml.h - markup reduced to a table of records (table.h): XML as
 * Java's JAXB, .NET's XmlSerializer or Python's ElementTree write it (the
 * record is the element repeated under the root, or under one element
 * below it; its fields are its attributes and its children's text, a child
 * with children of its own giving key paths (normal.x), a child repeated
 * giving a list), and HTML tables (pandas' to_html, a notebook's export):
 * th cells the header, td cells the rows. Entities (&amp; &lt; &#38; ...)
 * and CDATA are decoded; comments, processing instructions and the
 * doctype are skipped. */
#ifndef BC_TABLE_XML_H
#define BC_TABLE_XML_H

#include <stdbool.h>
#include <stddef.h>

#include "table.h"

/* Does text (from its first byte that is not white space) start as markup
 * ('<' and a letter, '?', or '!')? */
bool cliLooksLikeMarkup(const char* text, size_t length);

/* Read text into t. False when the markup cannot be read (an element never
 * closed, no repeated element), with error at its place. */
bool cliTable_ReadMarkup(cliTable* t, const char* text, size_t length, bcError* error);

#endif
