# "Unicode strings" guide: code points, UTF-8 / UTF-16-BE encodings,
# unicode_decode / unicode_encode / unicode_transcode, batches as ragged,
# padded and sparse tensors, lengths and substrings in bytes vs characters,
# unicode_split and decode_with_offsets, and strings inside tf.function.
import autograph_cli.tf as tf

text_utf8 = tf.constant(u"语言处理")
text_utf16be = tf.constant(u"语言处理".encode("UTF-16-BE"))
text_chars = tf.constant([ord(char) for char in u"语言处理"])
print(text_utf8)
print(text_utf16be)
print(text_chars)
print(tf.strings.unicode_decode(text_utf8, input_encoding="UTF-8"))
print(tf.strings.unicode_encode(text_chars, output_encoding="UTF-8"))
print(tf.strings.unicode_transcode(text_utf8, input_encoding="UTF8", output_encoding="UTF-16-BE"))

batch_utf8 = [s.encode("UTF-8") for s in [u"hÃllo", u"What is the weather tomorrow", u"Göödnight", u"😊"]]
batch_chars_ragged = tf.strings.unicode_decode(batch_utf8, input_encoding="UTF-8")
for sentence_chars in batch_chars_ragged.to_list():
    print(sentence_chars)
batch_chars_padded = batch_chars_ragged.to_tensor(default_value=-1)
print(batch_chars_padded.numpy()[:, :5])
batch_chars_sparse = batch_chars_ragged.to_sparse()
print("sparse:", batch_chars_sparse.dense_shape.numpy(), batch_chars_sparse.values.shape)

print(tf.strings.unicode_encode([[99, 97, 116], [100, 111, 103], [99, 111, 119]], output_encoding="UTF-8"))
print(tf.strings.unicode_encode(batch_chars_ragged, output_encoding="UTF-8"))
print(tf.strings.unicode_encode(tf.RaggedTensor.from_sparse(batch_chars_sparse), output_encoding="UTF-8"))
print(tf.strings.unicode_encode(tf.RaggedTensor.from_tensor(batch_chars_padded, padding=-1), output_encoding="UTF-8"))

thanks = u"Thanks 😊".encode("UTF-8")
num_bytes = tf.strings.length(thanks).numpy()
num_chars = tf.strings.length(thanks, unit="UTF8_CHAR").numpy()
print("{} bytes; {} UTF-8 characters".format(num_bytes, num_chars))
print(tf.strings.substr(thanks, pos=7, len=1).numpy())
print(tf.strings.substr(thanks, pos=7, len=1, unit="UTF8_CHAR").numpy())
print(tf.strings.unicode_split(thanks, "UTF-8").numpy())
codepoints, offsets = tf.strings.unicode_decode_with_offsets(u"🎈🎉🎊", "UTF-8")
for (codepoint, offset) in zip(codepoints.numpy(), offsets.numpy()):
    print("At byte offset {}: codepoint {}".format(offset, codepoint))


@tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
def char_counts(words):
    chars = tf.strings.unicode_decode(words, "UTF-8")
    n = chars.row_lengths()
    upper = tf.strings.upper(words)
    return n, upper, tf.strings.unicode_encode(chars[:, :2] + 1, "UTF-8")


n, upper, rev = char_counts(tf.constant(["añb", "héllo", ""]))
print(n, upper, rev)
