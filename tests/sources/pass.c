/* Answers PASS to any request; uses <math.h> so that the contest's -lm matters. */
#include <math.h>
#include <stdio.h>
int main(void) {
    static char line[1 << 16];
    if (!fgets(line, sizeof line, stdin)) return 1;
    printf("{\"response\":\"PASS\",\"data\":\"%d\"}\n", (int)sqrt(16.0));
    return 0;
}
