"""The Lua scripts the Redis index runs: each decision is one atomic call, one round trip.

Running the checks and the additions of a document in one script is what
keeps two workers from both keeping the same text: Redis runs a script
alone, so the second worker's script sees what the first one added.

Every addition is also pushed on the owner's journal (a list per commit
epoch), so that ``RELEASE`` can take back the additions of a task that died
before its shards were committed. Journal items: ``h<key>\\n<field>`` (a hash
field: URL, text or paragraph), ``n<key>\\n<field>`` (one copy counted),
``d<doc>`` (a signature slot) and
``b<doc>\\n<key>\\n<field>`` (a document's id in an LSH band entry). Keys
hold no newline (the prefix is checked), so the first newlines split them.
"""

CLAIM = """
-- ARGV: key, field, journal, value. 1 when the field was new (and is now owned), else 0.
if redis.call("HSETNX", ARGV[1], ARGV[2], ARGV[4] or "") == 1 then
  redis.call("RPUSH", ARGV[3], "h" .. ARGV[1] .. "\\n" .. ARGV[2])
  return 1
end
return 0
"""

CLAIM_IN_FLIGHT = """
-- ARGV: key, field, in-flight set. As CLAIM, but the owner's claim waits in a set
-- (not an epoch's journal) until its page is checked: a commit in between must not
-- make a URL whose page was read but not yet added count as done.
if redis.call("HSETNX", ARGV[1], ARGV[2], "") == 1 then
  redis.call("SADD", ARGV[3], "h" .. ARGV[1] .. "\\n" .. ARGV[2])
  return 1
end
return 0
"""

ADOPT = """
-- ARGV: in-flight set, item, journal: the checked page's URL joins the open epoch.
if redis.call("SREM", ARGV[1], ARGV[2]) == 1 then redis.call("RPUSH", ARGV[3], ARGV[2]) end
return 1
"""

DECIDE = """
-- One document's exact, near and paragraph levels, in the order of Deduplicator:
-- returns {0} kept, {1, owner} exact, {2, owner} near, {3, owner} paragraph (too
-- little left), {4, doc, kept paragraph indexes...} kept with paragraphs removed.
-- An owner is the 8-byte id of the kept document a drop copies ("" unknown); every
-- entry a kept document adds holds its owner, and its signature slot's owner sits
-- in the block ``<prefix>o:<n>`` (8 bytes a slot), beside the signature's.
local journal, prefix = ARGV[1], ARGV[2]
local text_key, text_field = ARGV[3], ARGV[4]
local nbands = tonumber(ARGV[5])
local i = 6
local bands = {}
for b = 1, nbands do bands[b] = {ARGV[i], ARGV[i + 1]}; i = i + 2 end
local sig, threshold, bits = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
local slots, sig_bytes, block = tonumber(ARGV[i + 3]), tonumber(ARGV[i + 4]), tonumber(ARGV[i + 5])
i = i + 6
local npara = tonumber(ARGV[i]); i = i + 1
local paras = {}
for p = 1, npara do paras[p] = {ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])}; i = i + 3 end
local min_left = tonumber(ARGV[i])
local in_flight, adopted = ARGV[i + 1], ARGV[i + 2]
local owner, url_key, url_field = ARGV[i + 3], ARGV[i + 4], ARGV[i + 5]
if adopted ~= "" and redis.call("SREM", in_flight, adopted) == 1 then
  redis.call("RPUSH", journal, adopted)
end

if text_key ~= "" then
  local found = redis.call("HGET", text_key, text_field)
  if found then return {1, found} end
end

-- b-bit MinHash (Li & Koenig 2010): equal slots, corrected for chance agreement.
local per, mask = 8 / bits, bit.lshift(1, bits) - 1
local chance = 1 / bit.lshift(1, bits)
local function similarity(other)
  local equal = 0
  for k = 1, sig_bytes do
    local z = bit.bxor(string.byte(sig, k), string.byte(other, k))
    for s = 0, per - 1 do
      if (k - 1) * per + s < slots and bit.band(bit.rshift(z, s * bits), mask) == 0 then
        equal = equal + 1
      end
    end
  end
  return (equal / slots - chance) / (1 - chance)
end

local function signature_of(doc)
  local offset = (doc % block) * sig_bytes
  return redis.call("GETRANGE", prefix .. "s:" .. math.floor(doc / block),
                    offset, offset + sig_bytes - 1)
end

local function owner_of(doc)
  local offset = (doc % block) * 8
  return redis.call("GETRANGE", prefix .. "o:" .. math.floor(doc / block), offset, offset + 7)
end

local candidates = {}
for b = 1, nbands do
  local ids = redis.call("HGET", bands[b][1], bands[b][2])
  if ids then
    for id in string.gmatch(ids, "[^,]+") do
      if not candidates[id] then
        candidates[id] = true
        local other = signature_of(tonumber(id))
        if string.len(other) == sig_bytes and similarity(other) >= threshold then
          return {2, owner_of(tonumber(id))}
        end
      end
    end
  end
end

local kept, words_left, in_doc, trimmed = {}, 0, {}, false
local sources, best, best_count = {}, "", 0
for p = 1, npara do
  local key, field = paras[p][1], paras[p][2]
  local repeated = false
  if key ~= "" then
    local id = key .. "\\n" .. field
    local found = redis.call("HGET", key, field)
    repeated = in_doc[id] or found ~= false
    if found and found ~= "" and not in_doc[id] then
      sources[found] = (sources[found] or 0) + 1
      if sources[found] > best_count then best, best_count = found, sources[found] end
    end
    in_doc[id] = true
  end
  if repeated then
    trimmed = true
  else
    kept[#kept + 1] = p - 1
    words_left = words_left + paras[p][3]
  end
end
if trimmed and words_left < min_left then return {3, best} end

local function claim(key, field)
  if redis.call("HSETNX", key, field, owner) == 1 then
    redis.call("RPUSH", journal, "h" .. key .. "\\n" .. field)
  end
end
if text_key ~= "" then claim(text_key, text_field) end
if url_key ~= "" then redis.call("HSET", url_key, url_field, owner) end
local doc = 0
if nbands > 0 then
  doc = redis.call("INCR", prefix .. "docs")
  local block_key = prefix .. "s:" .. math.floor(doc / block)
  local owners_key = prefix .. "o:" .. math.floor(doc / block)
  if redis.call("EXISTS", block_key) == 0 then
    -- made at full size once: growing it by SETRANGE would over-allocate
    redis.call("SET", block_key, string.rep("\\0", block * sig_bytes))
  end
  if redis.call("EXISTS", owners_key) == 0 then
    redis.call("SET", owners_key, string.rep("\\0", block * 8))
  end
  redis.call("SETRANGE", block_key, (doc % block) * sig_bytes, sig)
  redis.call("SETRANGE", owners_key, (doc % block) * 8, owner)
  redis.call("RPUSH", journal, "d" .. doc)
  local name = tostring(doc)
  for b = 1, nbands do
    local key, field = bands[b][1], bands[b][2]
    local ids = redis.call("HGET", key, field)
    redis.call("HSET", key, field, ids and (ids .. "," .. name) or name)
    redis.call("RPUSH", journal, "b" .. name .. "\\n" .. key .. "\\n" .. field)
  end
end
for _, p in ipairs(kept) do
  local key = paras[p + 1][1]
  if key ~= "" then claim(key, paras[p + 1][2]) end
end
if not trimmed then return {0} end
local answer = {4, doc}
for _, p in ipairs(kept) do answer[#answer + 1] = p end
return answer
"""

ADD = """
-- A kept document's entries, unchecked (rebuilding the index from a corpus). ARGV:
-- journal, prefix, owner, then pairs of (key, field) to claim until an empty key, then
-- the signature (empty: none), its bytes, the block size, and its band (key, field) pairs.
local journal, prefix, owner = ARGV[1], ARGV[2], ARGV[3]
local i = 4
while ARGV[i] ~= "" do
  if redis.call("HSETNX", ARGV[i], ARGV[i + 1], owner) == 1 then
    redis.call("RPUSH", journal, "h" .. ARGV[i] .. "\\n" .. ARGV[i + 1])
  end
  i = i + 2
end
local sig, sig_bytes, block = ARGV[i + 1], tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3])
if sig == "" then return 1 end
local doc = redis.call("INCR", prefix .. "docs")
local block_key = prefix .. "s:" .. math.floor(doc / block)
local owners_key = prefix .. "o:" .. math.floor(doc / block)
if redis.call("EXISTS", block_key) == 0 then
  redis.call("SET", block_key, string.rep("\\0", block * sig_bytes))
end
if redis.call("EXISTS", owners_key) == 0 then
  redis.call("SET", owners_key, string.rep("\\0", block * 8))
end
redis.call("SETRANGE", block_key, (doc % block) * sig_bytes, sig)
redis.call("SETRANGE", owners_key, (doc % block) * 8, owner)
redis.call("RPUSH", journal, "d" .. doc)
local name = tostring(doc)
for b = i + 4, #ARGV, 2 do
  local key, field = ARGV[b], ARGV[b + 1]
  local ids = redis.call("HGET", key, field)
  redis.call("HSET", key, field, ids and (ids .. "," .. name) or name)
  redis.call("RPUSH", journal, "b" .. name .. "\\n" .. key .. "\\n" .. field)
end
return 1
"""

REOWN = """
-- ARGV: old owner, new owner, prefix, block, doc (0: no signature), then (key, field)
-- pairs: a document trimmed by paragraph dedup gets its final id on its entries.
local old, new = ARGV[1], ARGV[2]
local prefix, block, doc = ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
for i = 6, #ARGV, 2 do
  if redis.call("HGET", ARGV[i], ARGV[i + 1]) == old then
    redis.call("HSET", ARGV[i], ARGV[i + 1], new)
  end
end
if doc > 0 then
  redis.call("SETRANGE", prefix .. "o:" .. math.floor(doc / block), (doc % block) * 8, new)
end
return 1
"""

COPY = """
-- ARGV: key, field, journal: one more copy dropped for the kept document ``field``.
redis.call("HINCRBY", ARGV[1], ARGV[2], 1)
redis.call("RPUSH", ARGV[3], "n" .. ARGV[1] .. "\\n" .. ARGV[2])
return 1
"""

RELEASE = """
-- ARGV: journal (an epoch's list or the in-flight set), prefix, signature bytes,
-- signatures per block. Undo every addition it lists, then drop it; returns how many.
local journal, prefix = ARGV[1], ARGV[2]
local sig_bytes, block = tonumber(ARGV[3]), tonumber(ARGV[4])
local items
if redis.call("TYPE", journal).ok == "set" then items = redis.call("SMEMBERS", journal)
else items = redis.call("LRANGE", journal, 0, -1) end
for _, item in ipairs(items) do
  local kind = string.sub(item, 1, 1)
  if kind == "h" then
    local cut = string.find(item, "\\n", 2, true)
    redis.call("HDEL", string.sub(item, 2, cut - 1), string.sub(item, cut + 1))
  elseif kind == "n" then
    local cut = string.find(item, "\\n", 2, true)
    local key, field = string.sub(item, 2, cut - 1), string.sub(item, cut + 1)
    if redis.call("HINCRBY", key, field, -1) <= 0 then redis.call("HDEL", key, field) end
  elseif kind == "d" then
    local doc = tonumber(string.sub(item, 2))
    redis.call("SETRANGE", prefix .. "s:" .. math.floor(doc / block),
               (doc % block) * sig_bytes, string.rep("\\0", sig_bytes))
  elseif kind == "b" then
    local first = string.find(item, "\\n", 2, true)
    local second = string.find(item, "\\n", first + 1, true)
    local doc = string.sub(item, 2, first - 1)
    local key, field = string.sub(item, first + 1, second - 1), string.sub(item, second + 1)
    local ids = redis.call("HGET", key, field)
    if ids then
      local rest = {}
      for id in string.gmatch(ids, "[^,]+") do
        if id ~= doc then rest[#rest + 1] = id end
      end
      if #rest == 0 then redis.call("HDEL", key, field)
      else redis.call("HSET", key, field, table.concat(rest, ",")) end
    end
  end
end
redis.call("DEL", journal)
return #items
"""

BEGIN_COMMIT = """
-- KEYS: the owner's calls hash, its commit mark. ARGV: how long the mark lasts (ms).
-- Refused (0) once the owner was taken over ("h": HANDED_FIELD); else its commit is marked
-- as under way, in the same step: no takeover can fall between the check and the mark.
if redis.call("HEXISTS", KEYS[1], "h") == 1 then return 0 end
redis.call("SET", KEYS[2], "1", "PX", ARGV[1])
return 1
"""

CONFIRM = """
-- ARGV: the owner's journal of the epoch just committed, its commit mark, its confirmed-
-- epoch key, the epoch. Behind ``once``, which refuses an owner taken over: another process
-- released that epoch and redoes its pages, so the commit that landed must be undone by the
-- folder (``RedisIndex.lost_commit``), not confirmed here.
redis.call("DEL", ARGV[1], ARGV[2])
redis.call("SET", ARGV[3], ARGV[4])
return 1
"""

ABANDON = """
-- KEYS: the owner's calls hash, its commit mark. Mark the owner taken over (1), unless
-- it is committing (0): it may be only stalled, its commit landed or about to.
if redis.call("EXISTS", KEYS[2]) == 1 then return 0 end
redis.call("DEL", KEYS[1])
redis.call("HSET", KEYS[1], "h", "1")
return 1
"""
