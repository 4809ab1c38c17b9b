#include "CSodium.h"
#include "CLibraryLoader.h"

/* Every libsodium function the Swift code calls (FleetConfig's Sodium, the lock's PIN hash), resolved at once. */
#define DK_SODIUM_FUNCTIONS(F, V)                                                                    \
    F(int, sodium_init, (void), ())                                                                  \
    F(int, crypto_sign_seed_keypair, (unsigned char *pk, unsigned char *sk, const unsigned char *seed), \
      (pk, sk, seed))                                                                               \
    F(int, crypto_sign_detached,                                                                     \
      (unsigned char *sig, unsigned long long *siglen_p, const unsigned char *m, unsigned long long mlen, \
       const unsigned char *sk),                                                                    \
      (sig, siglen_p, m, mlen, sk))                                                                  \
    F(int, crypto_sign_verify_detached,                                                              \
      (const unsigned char *sig, const unsigned char *m, unsigned long long mlen, const unsigned char *pk), \
      (sig, m, mlen, pk))                                                                           \
    F(int, crypto_hash_sha256, (unsigned char *out, const unsigned char *in, unsigned long long inlen), \
      (out, in, inlen))                                                                             \
    F(int, crypto_generichash,                                                                       \
      (unsigned char *out, size_t outlen, const unsigned char *in, unsigned long long inlen,            \
       const unsigned char *key, size_t keylen),                                                    \
      (out, outlen, in, inlen, key, keylen))                                                         \
    F(int, crypto_pwhash_scryptsalsa208sha256,                                                       \
      (unsigned char *const out, unsigned long long outlen, const char *const passwd,                 \
       unsigned long long passwdlen, const unsigned char *const salt, unsigned long long opslimit,     \
       size_t memlimit),                                                                            \
      (out, outlen, passwd, passwdlen, salt, opslimit, memlimit))                                    \
    F(int, crypto_pwhash_str,                                                                        \
      (char out[crypto_pwhash_STRBYTES], const char *const passwd, unsigned long long passwdlen,       \
       unsigned long long opslimit, size_t memlimit),                                               \
      (out, passwd, passwdlen, opslimit, memlimit))                                                  \
    F(int, crypto_pwhash_str_verify,                                                                 \
      (const char str[crypto_pwhash_STRBYTES], const char *const passwd, unsigned long long passwdlen), \
      (str, passwd, passwdlen))                                                                      \
    V(void, randombytes_buf, (void *const buf, const size_t size), (buf, size))                       \
    V(void, sodium_memzero, (void *const pnt, const size_t len), (pnt, len))

DK_LIBRARY_DEFINE(DK_SODIUM_SONAME, DK_SODIUM_FUNCTIONS)

int dk_sodium_load(const char *soname, char *error, size_t error_size) {
    return dk_library_load(&dk_this_library, soname, error, error_size);
}
