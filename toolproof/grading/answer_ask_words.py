"""The words of asking, in English, Portuguese and Spanish: data only, beside answer_lexicon
(the generic words) and answer_claim_words (completion claims). Request forms that ask without a
question mark, sayings of what is missing, days named relative to today, words that offer an
example, and the details a reply may ask for (the answer rule `asks_for`: date, time, amount…)
with the words that name each. docs/grading.md lists them (a test keeps them in step).

Every entry is written lowercase and NFC, as answer_text.normalise leaves a reply.

Pure: no I/O.
"""
from __future__ import annotations

# A request form asks the user without a question mark ("Please tell me the amount").
REQUESTS = {
    "en": ("please tell me", "tell me", "let me know", "could you", "can you", "would you",
           "please provide", "please share", "please specify", "please confirm", "please send",
           "please give", "please let me know", "i need", "i'll need", "i will need", "i'd need",
           "i would need", "i need to know", "i just need", "please choose", "please pick",
           "please select", "just let me know", "send me", "give me", "share the",
           "once you tell me", "once you let me know", "as soon as you tell me",
           "when you tell me", "if you tell me", "if you give me", "once i have",
           "as soon as i have", "without a",
           "without the", "without your", "need the", "need a", "need your", "once you confirm",
           "as soon as you confirm", "when you confirm", "if you confirm", "awaiting your",
           "waiting for your", "wait for your", "reply yes", "say yes", "say the word", "give me the go-ahead"),
    "pt": ("diga-me", "diz-me", "indique", "indica-me", "indique-me", "informe", "informa-me",
           "informe-me", "preciso de saber", "preciso que", "preciso de", "pode dizer",
           "podes dizer", "poderia dizer", "pode indicar", "podes indicar", "pode confirmar",
           "podes confirmar", "me diga", "me informe", "confirme", "confirma", "especifique",
           "necessito", "por favor", "diga", "escolha", "avise-me", "avisa-me", "sem a", "sem o",
           "preciso da", "preciso do", "assim que me disser", "quando me disser", "me diz",
           "me fala", "me passa", "me manda", "me informa", "me avisa", "me confirma",
           "assim que confirmar", "quando confirmar", "se confirmar", "aguardo a sua", "aguardo a tua",
           "aguardo confirmação", "fico a aguardar",
           "responda sim", "responde sim", "é só confirmar", "falta-me saber", "me falta saber",
           "assim que me disseres",
           "quando me disseres", "se me disseres", "assim que me digas", "quando me digas",
           "mal me digas", "assim que me indicares", "quando me indicares"),
    "es": ("dime", "dígame", "indícame", "indíqueme", "indica", "indique", "necesito saber",
           "necesito que", "necesito", "podrías", "puedes", "podría", "puede indicarme",
           "por favor", "házmelo saber", "hágamelo saber", "avísame", "avíseme", "confírmame",
           "confírmeme", "especifica", "especifique", "elige", "elija", "sin la", "sin el",
           "en cuanto me digas", "cuando me digas", "en cuanto me confirmes", "cuando me confirmes",
           "en cuanto confirmes", "cuando confirmes", "si me confirmas", "espera de tu",
           "espera de su", "espero tu", "espero su", "responde sí", "responda sí", "solo confirma",
           "me falta saber", "me falta por saber"),
}

# Saying what is missing, then asking ("I don't have the new contact's email. What is it?"): the
# question asks for what the sentence before it names.
LACKS = {
    "en": ("i don't have", "i do not have", "i'm missing", "i am missing", "i still need",
           "i need", "is missing", "are missing"),
    "pt": ("não tenho", "falta-me", "faltam-me", "me falta", "me faltam", "preciso", "ainda preciso"),
    "es": ("no tengo", "me falta", "me faltan", "necesito", "todavía necesito"),
}
# Days named relative to today: a date the reply picks itself ("departing tomorrow").
RELATIVE_DAYS = {
    "en": ("today", "tomorrow", "tonight", "this evening", "the day after tomorrow"),
    "pt": ("hoje", "amanhã", "esta noite", "depois de amanhã"),
    "es": ("hoy", "esta noche", "pasado mañana"),
}

# Words that offer an example, not a pick ("for example 200 €").
EXAMPLES = {
    "en": ("for example", "for instance", "such as", "say", "something like", "e.g"),
    "pt": ("por exemplo", "como", "tipo", "algo como"),
    "es": ("por ejemplo", "como", "algo como"),
}

# The details a reply may ask for (asks_for), each with the words that name it.
DETAILS = {
    "date": {
        "en": ("date", "day", "days", "when", "which evening", "what evening", "which night",
               "what night", "which morning", "monday", "tuesday",
               "wednesday", "thursday", "friday", "saturday", "sunday", "weekday", "dates",
               "which nights", "what nights", "check-in", "check-out", "travel dates"),
        "pt": ("data", "dia", "dias", "quando", "que noite", "qual noite", "segunda", "segunda-feira", "terça",
               "terça-feira", "quarta", "quarta-feira", "quinta", "quinta-feira", "sexta",
               "sexta-feira", "sábado", "domingo", "datas", "que noites", "quais noites", "check-in"),
        "es": ("fecha", "día", "días", "cuándo", "qué noche", "qué tarde", "lunes", "martes", "miércoles", "jueves",
               "viernes", "sábado", "domingo", "fechas", "qué noches", "check-in"),
    },
    "time": {
        "en": ("time", "times", "what time", "hour", "when", "o'clock", "morning", "afternoon",
               "evening", "am or pm"),
        "pt": ("hora", "horas", "horário", "a que horas", "quando", "manhã", "tarde", "noite"),
        "es": ("hora", "horas", "horario", "a qué hora", "cuándo", "mañana", "tarde", "noche"),
    },
    "duration": {
        "en": ("how long", "duration", "length", "how many minutes", "how many hours", "minutes",
               "an hour or", "half an hour"),
        "pt": ("quanto tempo", "duração", "durar", "dure", "minutos", "quantos minutos",
               "quantas horas", "meia hora"),
        "es": ("cuánto tiempo", "duración", "durar", "dure", "minutos", "cuántos minutos",
               "cuántas horas", "media hora"),
    },
    "amount": {
        "en": ("amount", "how much", "sum", "value", "euros", "dollars"),
        "pt": ("quanto", "quanta", "quantia", "montante", "valor", "importância", "euros"),
        "es": ("cuánto", "cuánta", "cantidad", "importe", "monto", "suma", "valor", "euros"),
    },
    "recipient": {
        "en": ("recipient", "recipients", "who", "whom", "email", "e-mail", "email address",
               "address", "contact", "person", "send it to", "share it with", "name"),
        "pt": ("destinatário", "destinatária", "destinatários", "quem", "email", "e-mail",
               "endereço", "contacto", "contato", "pessoa", "nome"),
        "es": ("destinatario", "destinataria", "destinatarios", "quién", "correo", "email",
               "e-mail", "dirección", "contacto", "persona", "nombre"),
    },
    "items": {
        "en": ("item", "items", "which ones", "which one", "product", "products", "things",
               "articles", "which of"),
        "pt": ("artigo", "artigos", "item", "itens", "produto", "produtos", "quais", "coisas"),
        "es": ("artículo", "artículos", "producto", "productos", "cuáles", "cosas"),
    },
    "account": {
        "en": ("account", "accounts", "iban", "from where", "where from"),
        "pt": ("conta", "contas", "iban", "de onde", "donde"),
        "es": ("cuenta", "cuentas", "iban", "de dónde", "desde dónde"),
    },
    "place": {
        "en": ("where", "place", "location", "city", "address", "restaurant", "venue"),
        "pt": ("onde", "local", "lugar", "sítio", "cidade", "morada", "endereço", "restaurante"),
        "es": ("dónde", "lugar", "ubicación", "ciudad", "dirección", "restaurante"),
    },
    "quantity": {
        "en": ("how many", "number of", "quantity", "people", "persons", "guests", "party size",
               "seats", "tickets", "passengers", "travellers", "travelers", "adults"),
        "pt": ("quantos", "quantas", "quantidade", "número de", "pessoas", "convidados",
               "lugares", "bilhetes", "passageiros", "adultos"),
        "es": ("cuántos", "cuántas", "cantidad", "número de", "personas", "invitados",
               "plazas", "billetes", "pasajeros", "adultos"),
    },
    "reason": {
        "en": ("reason", "why", "what's wrong", "what is wrong", "what was wrong", "what went wrong"),
        "pt": ("motivo", "razão", "porquê", "por que", "por quê", "o que se passa", "o que aconteceu"),
        "es": ("motivo", "razón", "por qué", "qué pasó", "qué le pasa"),
    },
    "name": {
        "en": ("name", "called", "named", "who"),
        "pt": ("nome", "chama", "chamado", "chamada"),
        "es": ("nombre", "llama", "llamado", "llamada"),
    },
}

# People counted: a number before one of these picks the party's size ("Vou procurar para 4
# pessoas"), a guess when the reply asks for the quantity.
PEOPLE = ("people", "persons", "guests", "adults", "children", "kids", "travellers", "travelers",
          "passengers", "pessoas", "adultos", "crianças", "hóspedes", "passageiros", "personas",
          "niños", "huéspedes", "pasajeros", "pax")
# A question's one question word that names the detail it asks ("¿cuánto dinero quieres pasar a
# la cuenta de ahorro?" asks the amount, not the account).
QUESTION_FOCUS = {"how much": "amount", "how many": "quantity", "cuánto": "amount", "cuánta": "amount", "quanto": "amount", "quanta": "amount",
                  "cuántos": "quantity", "cuántas": "quantity", "quantos": "quantity",
                  "quantas": "quantity"}
# Kinds of account: one named in a statement or proposed in a yes/no question is an account the
# reply picks itself ("Voy a transferir desde tu cuenta corriente").
ACCOUNT_KINDS = {
    "en": ("current account", "checking account", "main account", "everyday account"),
    "pt": ("conta à ordem", "conta corrente", "conta principal", "conta habitual"),
    "es": ("cuenta corriente", "cuenta principal", "cuenta habitual", "cuenta nómina", "cuenta de nómina"),
}
