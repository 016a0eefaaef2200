// An example NOI 2014 mahjong bot in Pascal (Free Pascal), restart mode: the judge starts it for every request.
//
// Build and run as the contest does:  fpc bot.pas   then   ./bot
// Standard library only; copy it and improve the strategy.
//
// Each run reads ONE line of JSON from standard input,
//   {"requests": [...], "responses": [...], "data": "...", "time_limit": "...", "memory_limit": "..."}
// (every request of the game so far, and this bot's answers to all but the last one), rebuilds the table from
// that history, prints ONE line {"response": "...", "data": ""} answering the last request, and exits.
// docs/contestants.md and README.md in this folder list the requests and the answers.
//
// Strategy (the same in every example bot): HU whenever the hand wins; discard the tile whose loss keeps the
// hand closest to winning (an isolated tile, a terminal first); PENG or a kong of three in hand only when it
// brings the hand closer (or no further) to winning; GANG a discard or a drawn tile onto an own PENG always;
// at "4" a winning-shaped target as close to the hand as a greedy search finds.
program bot;

{$mode objfpc}{$H+}

const
  KINDS = 27;
  MAX_TURNS = 512;
  MAX_WORDS = 16;

type
  TCounts = array[0..KINDS - 1] of Integer;
  TWords = array[0..MAX_WORDS - 1] of string;

var
  me: Integer = -1;
  hand: TCounts;
  meldKind, meldSize: array[0..3] of Integer;  { laid sets: size 3 (PENG) or 4 (GANG) }
  melds: Integer = 0;
  claimKind: Integer = -1;  { a PENG/GANG of mine on a discard, not yet known to have happened }
  claimAnswer: string;
  requests, responses: array[0..MAX_TURNS - 1] of string;
  bestShanten: Integer;

{ ---- tiles: index = 9 * suit + rank - 1; W1..W9 = 0..8, B1..B9 = 9..17, T1..T9 = 18..26 ---- }

function TileIndex(const name: string): Integer;
begin
  if (Length(name) <> 2) or (Pos(UpCase(name[1]), 'WBT') = 0) or not (name[2] in ['1'..'9']) then
    Exit(-1);
  Result := (Pos(UpCase(name[1]), 'WBT') - 1) * 9 + Ord(name[2]) - Ord('1');
end;

function TileName(index: Integer): string;
begin
  Result := 'WBT'[index div 9 + 1] + Chr(Ord('1') + index mod 9);
end;

function IntOr(const text: string; fallback: Integer): Integer;
var
  code: Integer;
begin
  Val(text, Result, code);
  if code <> 0 then
    Result := fallback;
end;

{ The words of a text, split at spaces; returns how many. }
function Split(const text: string; out words: TWords): Integer;
var
  i: Integer;
  word: string;
begin
  Result := 0;
  word := '';
  for i := 1 to Length(text) + 1 do
    if (i > Length(text)) or (text[i] = ' ') then
    begin
      if (word <> '') and (Result < MAX_WORDS) then
      begin
        words[Result] := word;
        Inc(Result);
      end;
      word := '';
    end
    else
      word := word + text[i];
end;

{ ---- a small JSON reader: just what the judge sends (an object with arrays of strings) ---- }

procedure SkipSpace(const json: string; var at: Integer);
begin
  while (at <= Length(json)) and (json[at] in [' ', #9, #10, #13]) do
    Inc(at);
end;

{ The string starting at json[at] (its opening quote); False if there is none. }
function ReadString(const json: string; var at: Integer; out value: string): Boolean;
begin
  value := '';
  SkipSpace(json, at);
  if (at > Length(json)) or (json[at] <> '"') then
    Exit(False);
  Inc(at);
  while (at <= Length(json)) and (json[at] <> '"') do
  begin
    if json[at] = '\' then
    begin
      Inc(at);
      if at > Length(json) then
        Exit(False);
      case json[at] of
        'n': value := value + #10;
        't': value := value + #9;
        'u': begin value := value + '?'; Inc(at, 4); end;  { the protocol never needs one }
      else
        value := value + json[at];
      end;
    end
    else
      value := value + json[at];
    Inc(at);
  end;
  Result := at <= Length(json);
  Inc(at);
end;

{ The strings of the array under "key"; how many, or -1 if it is missing or malformed. }
function ReadStringArray(const json, key: string; var items: array of string): Integer;
var
  at: Integer;
begin
  Result := -1;
  at := Pos('"' + key + '"', json);
  if at = 0 then
    Exit;
  at := at + Length(key) + 2;
  SkipSpace(json, at);
  if (at > Length(json)) or (json[at] <> ':') then
    Exit;
  Inc(at);
  SkipSpace(json, at);
  if (at > Length(json)) or (json[at] <> '[') then
    Exit;
  Inc(at);
  Result := 0;
  SkipSpace(json, at);
  while (at <= Length(json)) and (json[at] <> ']') do
  begin
    if (Result > High(items)) or not ReadString(json, at, items[Result]) then
      Exit(-1);
    Inc(Result);
    SkipSpace(json, at);
    if (at <= Length(json)) and (json[at] = ',') then
      Inc(at);
    SkipSpace(json, at);
  end;
  if at > Length(json) then
    Result := -1;
end;

{ ---- hand analysis ---- }

{ Whether the counts split into exactly `sets` sets and (if needPair) one pair. }
function IsComplete(var c: TCounts; sets: Integer; needPair: Boolean): Boolean;
var
  first: Integer;
begin
  first := 0;
  while (first < KINDS) and (c[first] = 0) do
    Inc(first);
  if first = KINDS then
    Exit((sets = 0) and not needPair);
  if needPair and (c[first] >= 2) then
  begin
    Dec(c[first], 2);
    Result := IsComplete(c, sets, False);
    Inc(c[first], 2);
    if Result then
      Exit;
  end;
  if sets = 0 then
    Exit(False);
  if c[first] >= 3 then
  begin
    Dec(c[first], 3);
    Result := IsComplete(c, sets - 1, needPair);
    Inc(c[first], 3);
    if Result then
      Exit;
  end;
  Result := False;
  if (first mod 9 <= 6) and (c[first + 1] > 0) and (c[first + 2] > 0) then
  begin
    Dec(c[first]); Dec(c[first + 1]); Dec(c[first + 2]);
    Result := IsComplete(c, sets - 1, needPair);
    Inc(c[first]); Inc(c[first + 1]); Inc(c[first + 2]);
  end;
end;

function Min(a, b: Integer): Integer;
begin
  if a < b then Result := a else Result := b;
end;

function Max(a, b: Integer): Integer;
begin
  if a > b then Result := a else Result := b;
end;

procedure ShantenSearch(var c: TCounts; i, sets, partials, pair: Integer);
var
  now, left, k, gap: Integer;
begin
  while (i < KINDS) and (c[i] = 0) do
    Inc(i);
  now := 8 - 2 * sets - Min(partials, 4 - sets) - pair;
  if i = KINDS then
  begin
    bestShanten := Min(bestShanten, now);
    Exit;
  end;
  left := 0;
  for k := i to KINDS - 1 do
    left := left + c[k];
  if Max(-1, now - (2 * left + 2) div 3) >= bestShanten then
    Exit;  { even the best use of the rest cannot improve }
  if c[i] >= 3 then
  begin
    Dec(c[i], 3);
    ShantenSearch(c, i, sets + 1, partials, pair);
    Inc(c[i], 3);
  end;
  if (i mod 9 <= 6) and (c[i + 1] > 0) and (c[i + 2] > 0) then
  begin
    Dec(c[i]); Dec(c[i + 1]); Dec(c[i + 2]);
    ShantenSearch(c, i, sets + 1, partials, pair);
    Inc(c[i]); Inc(c[i + 1]); Inc(c[i + 2]);
  end;
  if c[i] >= 2 then
  begin
    Dec(c[i], 2);
    if pair = 0 then
      ShantenSearch(c, i, sets, partials, 1);
    ShantenSearch(c, i, sets, partials + 1, pair);
    Inc(c[i], 2);
  end;
  for gap := 1 to 2 do
    if (i mod 9 + gap <= 8) and (c[i + gap] > 0) then
    begin
      Dec(c[i]); Dec(c[i + gap]);
      ShantenSearch(c, i, sets, partials + 1, pair);
      Inc(c[i]); Inc(c[i + gap]);
    end;
  Dec(c[i]);
  ShantenSearch(c, i, sets, partials, pair);
  Inc(c[i]);
end;

{ How many tiles away from a winning hand (-1: it wins); `laid` sets are already laid down. }
function Shanten(var c: TCounts; laid: Integer): Integer;
begin
  bestShanten := 8;
  ShantenSearch(c, 0, laid, 0, 0);
  Result := bestShanten;
end;

{ Lower is more isolated: neighbours within two ranks in the same suit; terminals count less. }
function Isolation(const c: TCounts; i: Integer): Integer;
var
  rank, d, near: Integer;
begin
  rank := i mod 9;
  near := 0;
  for d := -2 to 2 do
    if (d <> 0) and (rank + d >= 0) and (rank + d <= 8) then
      near := near + c[i + d];
  Result := 3 * (c[i] - 1) + 2 * near;
  if (rank <> 0) and (rank <> 8) then
    Inc(Result);
end;

{ ---- what this bot knows ---- }

function FindPeng(kind: Integer): Integer;
var
  m: Integer;
begin
  for m := 0 to melds - 1 do
    if (meldKind[m] = kind) and (meldSize[m] = 3) then
      Exit(m);
  Result := -1;
end;

procedure AddMeld(kind, size: Integer);
begin
  meldKind[melds] := kind;
  meldSize[melds] := size;
  Inc(melds);
end;

{ My PENG/GANG on a discard happened unless the very next request is somebody's HU on that tile. }
procedure SettleClaim(const w: TWords; n: Integer);
var
  kind: Integer;
  answer: TWords;
begin
  if claimKind < 0 then
    Exit;
  kind := claimKind;
  claimKind := -1;
  if (n = 4) and (w[0] = '3') and (w[2] = 'HU') and (TileIndex(w[3]) = kind) then
    Exit;
  Split(claimAnswer, answer);
  if (answer[0] = 'GANG') and (FindPeng(kind) >= 0) then
  begin
    meldSize[FindPeng(kind)] := 4;  { the discard joined my PENG }
    Exit;
  end;
  Dec(hand[kind], 2);
  if answer[0] = 'PENG' then
  begin
    AddMeld(kind, 3);
    Dec(hand[TileIndex(answer[1])]);
  end
  else
  begin
    Dec(hand[kind]);
    AddMeld(kind, 4);
  end;
end;

{ Takes in one request. }
procedure See(const request: string);
var
  w: TWords;
  n, j: Integer;
begin
  n := Split(request, w);
  SettleClaim(w, n);
  if (n = 2) and (w[0] = '0') then
    me := IntOr(w[1], -1)
  else if w[0] = '1' then
    for j := 1 to n - 1 do
      Inc(hand[TileIndex(w[j])])
  else if (n = 2) and (w[0] = '2') then
    Inc(hand[TileIndex(w[1])]);
end;

{ Takes in my answer to a past request. }
procedure Did(const request, response: string);
var
  w, answer: TWords;
  n, kind: Integer;
begin
  n := Split(request, w);
  if Split(response, answer) = 0 then
    Exit;
  if (w[0] = '2') and (answer[0] <> 'HU') then
  begin
    kind := TileIndex(answer[1]);
    if answer[0] = 'PLAY' then
      Dec(hand[kind])
    else if FindPeng(kind) >= 0 then
    begin
      meldSize[FindPeng(kind)] := 4;
      Dec(hand[kind]);
    end
    else
    begin
      Dec(hand[kind], 4);
      AddMeld(kind, 4);
    end;
  end
  else if (n = 4) and (w[0] = '3') and (w[2] = 'PLAY') and ((answer[0] = 'PENG') or (answer[0] = 'GANG')) then
  begin
    claimKind := TileIndex(w[3]);
    claimAnswer := response;
  end;
end;

{ ---- deciding ---- }

function Wins: Boolean;
begin
  Result := IsComplete(hand, 4 - melds, True);
end;

{ The best discard (the shanten after it in `after`), or -1 if there is none besides `avoid`. }
function BestDiscard(avoid: Integer; out after: Integer): Integer;
var
  k, s, iso, centre, bestS, bestIso, bestCentre: Integer;
begin
  Result := -1;
  after := 99;
  bestS := 0; bestIso := 0; bestCentre := 0;
  for k := 0 to KINDS - 1 do
  begin
    if (hand[k] = 0) or (k = avoid) then
      Continue;
    Dec(hand[k]);
    s := Shanten(hand, melds);
    iso := Isolation(hand, k);
    centre := -Abs(k mod 9 - 4);
    Inc(hand[k]);
    if (Result < 0) or (s < bestS) or ((s = bestS) and ((iso < bestIso) or
       ((iso = bestIso) and (centre < bestCentre)))) then
    begin
      Result := k;
      bestS := s; bestIso := iso; bestCentre := centre;
    end;
  end;
  if Result >= 0 then
    after := bestS;
end;

function Turn: string;
var
  m, k, now, after: Integer;
begin
  if Wins then
    Exit('HU');
  for m := 0 to melds - 1 do
    if (meldSize[m] = 3) and (hand[meldKind[m]] > 0) then
      Exit('GANG ' + TileName(meldKind[m]));  { the fourth tile of my PENG is useless otherwise }
  now := Shanten(hand, melds);
  for k := 0 to KINDS - 1 do
    if hand[k] = 4 then
    begin
      hand[k] := 0;
      after := Shanten(hand, melds + 1);
      hand[k] := 4;
      if after <= now then
        Exit('GANG ' + TileName(k));
    end;
  Result := 'PLAY ' + TileName(BestDiscard(-1, after));
end;

function React(kind: Integer): string;
var
  winning: Boolean;
  now, after, discard: Integer;
begin
  Result := 'PASS';
  Inc(hand[kind]);
  winning := Wins;
  Dec(hand[kind]);
  if winning then
    Exit('HU');
  if FindPeng(kind) >= 0 then
    Exit('GANG');  { the discard makes my PENG a kong: the same hand, and one more draw }
  if hand[kind] < 2 then
    Exit;
  now := Shanten(hand, melds);
  if hand[kind] = 3 then
  begin
    hand[kind] := 0;
    after := Shanten(hand, melds + 1);
    hand[kind] := 3;
    if after <= now then
      Exit('GANG');
  end;
  Dec(hand[kind], 2);
  Inc(melds);
  discard := BestDiscard(kind, after);
  Dec(melds);
  Inc(hand[kind], 2);
  if (discard >= 0) and (after < now) then
    Result := 'PENG ' + TileName(discard);
end;

{ A winning shape (my melds, 4 - melds more sets, a pair) sharing as many tiles with my hand as found. }
function Target: string;
var
  pair, m, j, s, k, form, overlap, gain, pickGain, bestOverlap, count, bestCount: Integer;
  used, left, spare, need: TCounts;
  tiles, bestTiles: array[0..17] of Integer;
  pick, set3: array[0..2] of Integer;
  fits: Boolean;
begin
  bestOverlap := -1;
  bestCount := 0;
  for pair := 0 to KINDS - 1 do
  begin
    FillChar(used, SizeOf(used), 0);
    count := 0;
    for m := 0 to melds - 1 do
      for j := 1 to meldSize[m] do
      begin
        tiles[count] := meldKind[m];
        Inc(count);
        Inc(used[meldKind[m]]);
      end;
    Inc(used[pair], 2);
    fits := True;
    for k := 0 to KINDS - 1 do
      fits := fits and (used[k] <= 4);
    if not fits then
      Continue;
    left := hand;
    overlap := Min(left[pair], 2);
    Dec(left[pair], overlap);
    for s := melds to 3 do
    begin
      pickGain := -1;
      for form := 0 to 1 do  { triplets, then runs }
        for k := 0 to KINDS - 1 do
        begin
          if (form = 1) and (k mod 9 > 6) then
            Continue;
          set3[0] := k; set3[1] := k + form; set3[2] := k + 2 * form;
          FillChar(need, SizeOf(need), 0);
          for j := 0 to 2 do
            Inc(need[set3[j]]);
          fits := True;
          for j := 0 to 2 do
            fits := fits and (used[set3[j]] + need[set3[j]] <= 4);
          if not fits then
            Continue;
          spare := left;
          gain := 0;
          for j := 0 to 2 do
            if spare[set3[j]] > 0 then
            begin
              Dec(spare[set3[j]]);
              Inc(gain);
            end;
          if gain > pickGain then
          begin
            pickGain := gain;
            pick := set3;
          end;
        end;
      overlap := overlap + pickGain;
      for j := 0 to 2 do
      begin
        if left[pick[j]] > 0 then
          Dec(left[pick[j]]);
        Inc(used[pick[j]]);
        tiles[count] := pick[j];
        Inc(count);
      end;
    end;
    tiles[count] := pair;
    tiles[count + 1] := pair;
    Inc(count, 2);
    if overlap > bestOverlap then
    begin
      bestOverlap := overlap;
      bestTiles := tiles;
      bestCount := count;
    end;
  end;
  Result := '';
  for j := 0 to bestCount - 1 do
  begin
    if j > 0 then
      Result := Result + ' ';
    Result := Result + TileName(bestTiles[j]);
  end;
end;

function Decide(const request: string): string;
var
  w: TWords;
  n: Integer;
begin
  See(request);
  n := Split(request, w);
  if (n = 2) and (w[0] = '2') then
    Result := Turn
  else if (n = 4) and (w[0] = '3') and (w[2] = 'PLAY') and (IntOr(w[1], -1) <> me) then
    Result := React(TileIndex(w[3]))
  else if (n = 1) and (w[0] = '4') then
    Result := Target
  else
    Result := 'PASS';
end;

var
  line: string;
  nRequests, nResponses, t: Integer;
begin
  ReadLn(line);  { ONE line: the judge does not close standard input }
  nRequests := ReadStringArray(line, 'requests', requests);
  nResponses := ReadStringArray(line, 'responses', responses);
  if (nRequests < 1) or (nResponses <> nRequests - 1) then
  begin
    WriteLn(StdErr, 'bot.pas: the input is not the judge''s JSON');
    Halt(1);
  end;
  for t := 0 to nResponses - 1 do
  begin
    See(requests[t]);
    Did(requests[t], responses[t]);
  end;
  WriteLn('{"response": "', Decide(requests[nRequests - 1]), '", "data": ""}');
end.
