// Reference driver for Farmer's CA: prints per-hand EVs (conditioned on no dealer blackjack, as the CA defines them)
// and overall EVs, 17 significant digits.
// usage: driver counts=A,2,..,T h17=0|1 double=any|9|10|none das=0|1 hands=2|3|4 rsa=0|1 ls=0|1 bj=1.5 cdp=0|1 [three=1]
#include "src/blackjack.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <map>
struct Rules : BJRules {
    int hands; bool rsa; bool never;
    Rules(bool h17, bool any, bool d9, bool das, int hands, bool rsa, bool ls, double bj, bool never)
        : BJRules(h17, any, d9, true, false, das, hands > 2, rsa, ls, bj), hands(hands), rsa(rsa), never(never) {}
    int getResplit(int pairCard) const override {
        if (hands <= 1) return 1;
        if (pairCard == 1 && !rsa) return 2;
        return hands;
    }
    bool getDoubleDown(const BJHand &h) const override { return !never && BJRules::getDoubleDown(h); }
    bool getDoubleAfterSplit(const BJHand &h) const override { return !never && BJRules::getDoubleAfterSplit(h); }
};
int main(int argc, char **argv) {
    std::map<std::string, std::string> a;
    for (int i = 1; i < argc; ++i) { std::string s = argv[i]; auto e = s.find('='); a[s.substr(0, e)] = s.substr(e + 1); }
    int cards[11] = {0};
    { std::string c = a["counts"]; int k = 1; char *p = &c[0]; while (k <= 10) { cards[k++] = strtol(p, &p, 10); if (*p == ',') ++p; } }
    std::string d = a.count("double") ? a["double"] : "any";
    Rules rules(a["h17"] == "1", d == "any", d == "9", a["das"] == "1", atoi(a["hands"].c_str()), a["rsa"] == "1",
                a["ls"] == "1", a.count("bj") ? atof(a["bj"].c_str()) : 1.5, d == "none");
    BJShoe shoe(cards);
    std::string m = a.count("split") ? a["split"] : "cdz"; BJStrategy strategy(m == "cdz", m == "cdp1");
    BJProgress progress;
    BJPlayer *player = new BJPlayer(shoe, rules, strategy, progress);
    for (int up = 1; up <= 10; ++up) {
        if (!cards[up]) continue;
        for (int c1 = 1; c1 <= 10; ++c1) for (int c2 = c1; c2 <= 10; ++c2) {
            int need[11] = {0}; need[c1]++; need[c2]++; need[up]++;
            bool ok = true; for (int k = 1; k <= 10; ++k) if (need[k] > cards[k]) ok = false;
            if (!ok) continue;
            BJHand h; h.deal(c1); h.deal(c2);
            printf("hand %d,%d up %d stand %.17g hit %.17g double %.17g", c1, c2, up, player->getValueStand(h, up),
                   player->getValueHit(h, up), player->getValueDoubleDown(h, up));
            if (c1 == c2 && rules.getResplit(c1) >= 2) printf(" split %.17g", player->getValueSplit(c1, up));
            printf("\n");
            if (a["three"] == "1") for (int c3 = 1; c3 <= 10; ++c3) {
                need[c3]++; bool ok3 = need[c3] <= cards[c3]; need[c3]--;
                BJHand t; t.deal(c1); t.deal(c2); t.deal(c3);
                if (!ok3 || t.getCount() > 21) continue;
                printf("hand %d,%d,%d up %d stand %.17g hit %.17g\n", c1, c2, c3, up, player->getValueStand(t, up),
                       player->getValueHit(t, up));
            }
        }
        printf("overall up %d %.17g\n", up, player->getValue(up));
    }
    printf("overall %.17g\n", player->getValue());
    return 0;
}
