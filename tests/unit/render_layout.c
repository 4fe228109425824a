/* render_layout.c tests: text widths and boxes (hand-computed), labels
 * placed beside their anchor without overlapping or dropped when no place is
 * free, and the key's entries laid out in rows (hand-computed). */
#include "harness.h"
#include "render_layout.h"

/* Widths and positions are sums of a few products of numbers of size
 * <= 1e3 px rounded once each: a few ulps of 1e3. */
#define PIXEL_TOLERANCE 1e-12

/* Random labels for the property. */
#define PROPERTY_CASES 300

static bool insideBox(cliBox box, cliBox area)
{
	return box.left >= area.left && box.right <= area.right && box.top >= area.top && box.bottom <= area.bottom;
}

START_TEST(text_width_counts_characters_not_bytes)
{
	/* 0.65 em a character: "ab" at 10 px is 13 px; "é" (two bytes) is one character */
	bcAssertNear(cliTextWidth("ab", 10.0), 13.0, PIXEL_TOLERANCE);
	bcAssertNear(cliTextWidth("\xc3\xa9t\xc3\xa9", 10.0), 19.5, PIXEL_TOLERANCE);
	bcAssertNear(cliTextWidth("", 10.0), 0.0, 0.0);
	cliBox box = cliTextBox("abc", 10.0, 100.0, 50.0);
	bcAssertNear(box.left, 100.0, 0.0);
	bcAssertNear(box.top, 42.0, PIXEL_TOLERANCE);
	bcAssertNear(box.right, 119.5, PIXEL_TOLERANCE);
	bcAssertNear(box.bottom, 52.0, PIXEL_TOLERANCE);
}
END_TEST

START_TEST(boxes_that_share_an_edge_do_not_overlap)
{
	cliBox a = { 0.0, 0.0, 10.0, 10.0 };
	cliBox right = { 10.0, 0.0, 20.0, 10.0 };
	cliBox below = { 0.0, 10.0, 10.0, 20.0 };
	cliBox inside = { 2.0, 2.0, 3.0, 3.0 };
	cliBox corner = { 9.0, 9.0, 30.0, 30.0 };
	ck_assert(!cliBox_Overlap(a, right) && !cliBox_Overlap(right, a));
	ck_assert(!cliBox_Overlap(a, below) && !cliBox_Overlap(below, a));
	ck_assert(cliBox_Overlap(a, inside) && cliBox_Overlap(inside, a));
	ck_assert(cliBox_Overlap(a, corner) && cliBox_Overlap(corner, a));
}
END_TEST

START_TEST(a_second_label_at_the_same_anchor_goes_to_the_next_place)
{
	cliLabels labels = { NULL, 0, 0 };
	cliBox area = { 0.0, 0.0, 400.0, 400.0 };
	/* "abc" at 10 px is 19.5 px wide; clearance 5: first places 10 px away */
	cliLabelPlace first = cliLabels_Place(&labels, area, 100.0, 100.0, "abc", 10.0, 5.0);
	ck_assert_int_eq(first.state, cli_labelPlaced);
	bcAssertNear(first.x, 110.0, 0.0); /* upper right */
	bcAssertNear(first.y, 90.0, 0.0);
	cliLabelPlace second = cliLabels_Place(&labels, area, 100.0, 100.0, "abc", 10.0, 5.0);
	ck_assert_int_eq(second.state, cli_labelPlaced);
	bcAssertNear(second.x, 70.5, PIXEL_TOLERANCE); /* upper left: 100 - 10 - 19.5 */
	bcAssertNear(second.y, 90.0, 0.0);
	ck_assert_int_eq(labels.count, 2);
	ck_assert(!cliBox_Overlap(labels.boxes[0], labels.boxes[1]));
	cliLabels_Free(&labels);
	ck_assert_ptr_null(labels.boxes);
	ck_assert_int_eq(labels.count, 0);
}
END_TEST

START_TEST(a_label_avoids_a_hand_made_box)
{
	cliLabels labels = { NULL, 0, 0 };
	cliBox area = { 0.0, 0.0, 400.0, 400.0 };
	/* a box over everything right of the anchor: the label goes upper left */
	cliLabelPlace wall = cliLabels_Place(&labels, area, 0.0, 0.0, "x", 10.0, 5.0);
	ck_assert_int_eq(wall.state, cli_labelPlaced); /* upper right of (0, 0) is off the area: below right */
	bcAssertNear(wall.x, 10.0, 0.0);
	bcAssertNear(wall.y, 18.0, PIXEL_TOLERANCE);  /* 0 + 10 + 0.8 em */
	labels.boxes[0] = (cliBox){ 100.0, 0.0, 400.0, 400.0 };
	cliLabelPlace place = cliLabels_Place(&labels, area, 100.0, 100.0, "abc", 10.0, 5.0);
	ck_assert_int_eq(place.state, cli_labelPlaced);
	bcAssertNear(place.x, 70.5, PIXEL_TOLERANCE);
	bcAssertNear(place.y, 90.0, 0.0);
	ck_assert(!cliBox_Overlap(labels.boxes[0], labels.boxes[1]));
	cliLabels_Free(&labels);
}
END_TEST

START_TEST(a_label_with_no_free_place_is_dropped)
{
	cliLabels labels = { NULL, 0, 0 };
	/* an area too small for the text */
	cliBox small = { 0.0, 0.0, 10.0, 10.0 };
	cliLabelPlace none = cliLabels_Place(&labels, small, 5.0, 5.0, "abc", 10.0, 5.0);
	ck_assert_int_eq(none.state, cli_labelNoRoom);
	ck_assert_int_eq(labels.count, 0);
	/* the same anchor over and over: its 24 places fill up, then labels are dropped and nothing is added */
	cliBox area = { 0.0, 0.0, 400.0, 400.0 };
	int placed = 0;
	for (int i = 0; i < 30; ++i) {
		cliLabelPlace p = cliLabels_Place(&labels, area, 200.0, 200.0, "abc", 10.0, 5.0);
		ck_assert_int_ne(p.state, cli_labelNoMemory);
		placed += p.state == cli_labelPlaced;
		ck_assert_int_eq(labels.count, placed);
	}
	ck_assert_int_gt(placed, 8);
	ck_assert_int_lt(placed, 24);
	ck_assert_int_eq(cliLabels_Place(&labels, area, 200.0, 200.0, "abc", 10.0, 5.0).state, cli_labelNoRoom);
	/* a box the size of the area leaves no place anywhere */
	labels.boxes[0] = area;
	ck_assert_int_eq(cliLabels_Place(&labels, area, 50.0, 50.0, "a", 10.0, 5.0).state, cli_labelNoRoom);
	ck_assert_int_eq(labels.count, placed);
	cliLabels_Free(&labels);
}
END_TEST

START_TEST(placed_labels_never_overlap_and_stay_inside)
{
	cliLabels labels = { NULL, 0, 0 };
	cliBox area = { 2.0, 30.0, 300.0, 200.0 };
	static const char* const texts[4] = { "7", "crate-edge", "t123", "\xc3\xa9l\xc3\xa8ve" };
	srand(19);
	long placed = 0;
	for (int i = 0; i < PROPERTY_CASES; ++i) {
		double x = 320.0 * rand() / RAND_MAX - 10.0, y = 220.0 * rand() / RAND_MAX;
		const char* text = texts[i % 4];
		cliLabelPlace p = cliLabels_Place(&labels, area, x, y, text, 11.0, 5.0);
		ck_assert_int_ne(p.state, cli_labelNoMemory);
		if (p.state == cli_labelPlaced) {
			placed += 1;
			cliBox box = cliTextBox(text, 11.0, p.x, p.y);
			ck_assert(insideBox(box, area));
			bcAssertNear(box.left, labels.boxes[labels.count - 1].left, 0.0);
			bcAssertNear(box.top, labels.boxes[labels.count - 1].top, 0.0);
		}
	}
	ck_assert_int_eq(labels.count, placed);
	ck_assert_int_gt(placed, 20);
	ck_assert_int_lt(placed, PROPERTY_CASES); /* the area fills up */
	for (long i = 0; i < labels.count; ++i) {
		for (long j = i + 1; j < labels.count; ++j) {
			ck_assert_msg(!cliBox_Overlap(labels.boxes[i], labels.boxes[j]), "labels %ld and %ld overlap", i, j);
		}
	}
	cliLabels_Free(&labels);
}
END_TEST

START_TEST(key_entry_width_is_mark_gap_and_text)
{
	/* 16 + 4 + 0.65 * 11 * 7 */
	bcAssertNear(cliKeyEntryWidth("contact", 11.0), 70.05, PIXEL_TOLERANCE);
	bcAssertNear(cliKeyEntryWidth("ball at contact", 11.0), 20.0 + 0.65 * 11.0 * 15.0, PIXEL_TOLERANCE);
	bcAssertNear(cliKeyEntryWidth("", 11.0), 20.0, 0.0);
}
END_TEST

START_TEST(key_entries_wrap_onto_rows)
{
	static const char* const texts[3] = { "path", "contact", "ball at contact" };
	/* caption "up: +z": 6 characters, 42.9 px; then 14 px apart */
	cliKeyLayout one = cliKeyLayout_Make("up: +z", texts, 2, 11.0, 16.0, 784.0, 500.0);
	ck_assert_int_eq(one.rows, 1);
	ck_assert_int_eq(one.count, 2);
	bcAssertNear(one.captionX, 16.0, 0.0);
	bcAssertNear(one.captionY, 512.0, 0.0); /* 500 + 16 - 4 */
	bcAssertNear(one.x[0], 72.9, PIXEL_TOLERANCE); /* 16 + 42.9 + 14 */
	bcAssertNear(one.x[1], 135.5, PIXEL_TOLERANCE); /* + 48.6 + 14 */
	bcAssertNear(one.y[1], 512.0, 0.0);
	/* right at 184: "contact" (70.05 px) at 135.5 would end at 205.55, so it starts row 2 */
	cliKeyLayout two = cliKeyLayout_Make("up: +z", texts, 3, 11.0, 16.0, 184.0, 0.0);
	ck_assert_int_eq(two.count, 3);
	bcAssertNear(two.x[0], 72.9, PIXEL_TOLERANCE);
	bcAssertNear(two.y[0], 12.0, 0.0);
	bcAssertNear(two.x[1], 16.0, 0.0);
	bcAssertNear(two.y[1], 28.0, 0.0);
	/* "ball at contact" (127.25 px) after it would end past 184: row 3; first of its row, it stays even where
	   it is wider than the row */
	bcAssertNear(two.x[2], 16.0, 0.0);
	bcAssertNear(two.y[2], 44.0, 0.0);
	ck_assert_int_eq(two.rows, 3);
	cliKeyLayout narrow = cliKeyLayout_Make("", texts + 2, 1, 11.0, 16.0, 50.0, 0.0);
	/* an empty caption still takes its 14 px: at x = 30 the entry would end at 157.25 > 50, so it wraps; first
	   of its row, it stays there though wider than the row */
	ck_assert_int_eq(narrow.rows, 2);
	bcAssertNear(narrow.captionX, 16.0, 0.0);
	bcAssertNear(narrow.x[0], 16.0, 0.0);
	bcAssertNear(narrow.y[0], 28.0, 0.0);
}
END_TEST

static Suite* renderLayoutSuite(void)
{
	Suite* s = suite_create("render_layout");
	TCase* boxes = tcase_create("boxes");
	tcase_add_test(boxes, text_width_counts_characters_not_bytes);
	tcase_add_test(boxes, boxes_that_share_an_edge_do_not_overlap);
	suite_add_tcase(s, boxes);
	TCase* labels = tcase_create("labels");
	tcase_add_test(labels, a_second_label_at_the_same_anchor_goes_to_the_next_place);
	tcase_add_test(labels, a_label_avoids_a_hand_made_box);
	tcase_add_test(labels, a_label_with_no_free_place_is_dropped);
	tcase_add_test(labels, placed_labels_never_overlap_and_stay_inside);
	suite_add_tcase(s, labels);
	TCase* key = tcase_create("key");
	tcase_add_test(key, key_entry_width_is_mark_gap_and_text);
	tcase_add_test(key, key_entries_wrap_onto_rows);
	suite_add_tcase(s, key);
	return s;
}

int main(void)
{
	return bcRunSuite(renderLayoutSuite());
}
