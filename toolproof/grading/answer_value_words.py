"""The words values are written with, in English, Portuguese and Spanish: numbers in words,
months, weekdays, times of day, currencies. Data only: answer_values reads replies with them,
and docs/grading.md lists them (a test keeps the two in step).

Every entry is lowercase and NFC, as answer_text.normalise leaves a reply.

Pure: no I/O.
"""
from __future__ import annotations

# ---- numbers, months and weekdays in words -----------------------------------------------------
NUMBER_WORDS = {
    "en": {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
           "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
           "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
           "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
           "hundred": 100, "a hundred": 100, "one hundred": 100, "thousand": 1000,
           "a thousand": 1000, "a couple": 2, "a dozen": 12, "half an hour": 30},
    "pt": {"zero": 0, "um": 1, "uma": 1, "dois": 2, "duas": 2, "três": 3, "quatro": 4,
           "cinco": 5, "seis": 6, "sete": 7, "oito": 8, "nove": 9, "dez": 10, "onze": 11,
           "doze": 12, "treze": 13, "catorze": 14, "quatorze": 14, "quinze": 15,
           "dezasseis": 16, "dezesseis": 16, "dezassete": 17, "dezessete": 17, "dezoito": 18,
           "dezanove": 19, "dezenove": 19, "vinte": 20, "trinta": 30, "quarenta": 40,
           "cinquenta": 50, "sessenta": 60, "setenta": 70, "oitenta": 80, "noventa": 90,
           "cem": 100, "cento": 100, "duzentos": 200, "duzentas": 200, "trezentos": 300,
           "trezentas": 300, "quatrocentos": 400, "quatrocentas": 400, "quinhentos": 500,
           "quinhentas": 500, "seiscentos": 600, "seiscentas": 600, "setecentos": 700,
           "setecentas": 700, "oitocentos": 800, "oitocentas": 800, "novecentos": 900,
           "novecentas": 900, "mil": 1000},
    "es": {"cero": 0, "uno": 1, "una": 1, "un": 1, "dos": 2, "tres": 3, "cuatro": 4,
           "cinco": 5, "seis": 6, "siete": 7, "ocho": 8, "nueve": 9, "diez": 10, "once": 11,
           "doce": 12, "trece": 13, "catorce": 14, "quince": 15, "dieciséis": 16,
           "diecisiete": 17, "dieciocho": 18, "diecinueve": 19, "veinte": 20, "treinta": 30,
           "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70, "ochenta": 80,
           "noventa": 90, "cien": 100, "ciento": 100, "doscientos": 200, "doscientas": 200,
           "trescientos": 300, "trescientas": 300, "cuatrocientos": 400, "cuatrocientas": 400,
           "quinientos": 500, "quinientas": 500, "seiscientos": 600, "seiscientas": 600,
           "setecientos": 700, "setecientas": 700, "ochocientos": 800, "ochocientas": 800,
           "novecientos": 900, "novecientas": 900, "mil": 1000},
}
# "twenty-one", "vinte e um", "treinta y dos", "two hundred and fifty", "doscientos cincuenta y
# cinco", "vinte e um mil e seiscentos": number words joined, each smaller than the one before,
# or multiplying it (MULTIPLIERS: "two hundred", "dos mil").
NUMBER_JOINERS = ("e", "y", "and")
MULTIPLIERS = {"hundred": 100, "thousand": 1000, "mil": 1000}
# "255 euros con 40 céntimos", "dois euros e cinquenta cêntimos": the cents join the amount
CENT_JOINERS = ("con", "com", "and", "e", "y")
CENT_WORDS = ("cents", "cent", "céntimos", "cêntimos", "centavos", "pence")
COMPOUND_NUMBERS = {"veintiuno": 21, "veintiuna": 21, "veintidós": 22, "veintitrés": 23,
                    "veinticuatro": 24, "veinticinco": 25, "veintiséis": 26,
                    "veintisiete": 27, "veintiocho": 28, "veintinueve": 29}

MONTHS = {
    "en": ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december"),
    "pt": ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
           "setembro", "outubro", "novembro", "dezembro"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
           "septiembre", "octubre", "noviembre", "diciembre"),
}
MONTH_ABBREVIATIONS = ("jan", "feb", "mar", "apr", None, "jun", "jul", "aug", "sep", "oct",
                       "nov", "dec")
EXTRA_MONTH_NAMES = {"sept": 9, "setiembre": 9, "marco": 3, "fev": 2, "abr": 4, "mai": 5,
                     "ago": 8, "dez": 12, "ene": 1, "dic": 12}
WEEKDAYS = {
    "en": ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    "pt": ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira",
           "sábado", "domingo"),
    "es": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
}
SHORT_WEEKDAYS = {"segunda": 0, "terça": 1, "quarta": 2, "quinta": 3, "sexta": 4,
                  "mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3,
                  "fri": 4, "sat": 5, "sun": 6}

# Times of day: "3.30 in the afternoon", "às 3 da tarde", "a las 3 de la tarde".
AFTERNOON = ("pm", "p.m.", "p.m", "in the afternoon", "in the evening", "at night",
             "da tarde", "da noite", "à tarde", "à noite", "de la tarde", "de la noche",
             "por la tarde", "por la noche")
MORNING = ("am", "a.m.", "a.m", "in the morning", "da manhã", "de manhã", "de la mañana",
           "por la mañana", "de la madrugada", "da madrugada")
NOON = ("noon", "midday", "meio-dia", "mediodía", "12 noon")
MIDNIGHT = ("midnight", "meia-noite", "medianoche")

# Currency words and signs that may stand before or after an amount.
CURRENCIES = ("€", "$", "£", "usd", "eur", "gbp", "euros", "euro", "dollars", "dólares",
              "dolares", "libras", "pounds", "us$", "brl", "reais")
# What currency each is: a stated amount's currency must agree with its source's
# (answer_grounded). Signs are read off the characters next to the number, longest first; a
# bare "$" is used for many currencies and names none.
CURRENCY_SIGNS = (("us$", "USD"), ("r$", "BRL"), ("€", "EUR"), ("£", "GBP"), ("$", None))
CURRENCY_CODES = {"eur": "EUR", "euro": "EUR", "euros": "EUR", "usd": "USD", "dollars": "USD",
                  "dollar": "USD", "dólares": "USD", "dolares": "USD", "dólar": "USD",
                  "gbp": "GBP", "pounds": "GBP", "libras": "GBP", "brl": "BRL", "reais": "BRL"}


# Words before a bare hour that make it a time ("at 7", "às 19", "a las 7").
AT_HOUR = ("at", "from", "until", "till", "between", "by", "às", "as", "das", "até", "pelas",
           "a las", "a la", "de las", "desde las", "hasta las", "entre las", "sobre las",
           "son las", "serán las", "eran las", "es la", "será la", "era la", "hacia las",
           "hacia la", "para las", "para la")
# Words that may follow a bare hour read as a time after "at", "às", "as", "a las" ("at 7 tonight",
# "às 9 em ponto", "a las 11 en Madrid"); any other word in lowercase makes the number a count
# ("as duas mensagens", "las dos reservas", "at two places", "at one point"). A capital is a
# name ("at 11 Lisbon time").
AFTER_TIME = ("in", "on", "at", "and", "or", "to", "until", "till", "for", "with", "but", "then",
              "sharp", "this", "tonight", "tomorrow", "today", "next", "every", "each", "local",
              "your", "my", "our", "is", "was", "will", "please", "so", "if", "when", "that",
              "instead", "rather", "exactly", "precisely", "latest", "earliest", "ish", "or so",
              "em", "no", "na", "de", "do", "da", "e", "ou", "até", "para", "com", "mas", "então",
              "desta", "deste", "esta", "este", "hoje", "amanhã", "todos", "todas", "cada", "hora",
              "é", "foi", "será", "se", "que", "pelo", "pela", "por", "à", "às", "ao", "certas",
              "en", "el", "la", "del", "y", "o", "u", "hasta", "con", "pero", "hoy", "mañana", "es",
              "fue", "si", "al", "a", "más", "mais", "menos", "aproximadamente", "exactamente",
              "exatamente", "ya", "já", "también", "também", "also", "too", "as", "las")
# Words after a bare hour that make it a time ("7 o'clock", "15 horas").
HOUR_WORDS = ("o'clock", "oclock", "horas", "hrs", "hours", "h")
# Minutes after an hour in words: (the words, the minutes, whether the hour counts back one:
# "seis menos cuarto" is 5:45).
MINUTES_AFTER = (
    (("thirty",), 30, False), (("fifteen",), 15, False), (("forty", "five"), 45, False),
    (("o'clock",), 0, False), (("e", "meia"), 30, False), (("e", "um", "quarto"), 15, False),
    (("e", "quinze"), 15, False), (("menos", "um", "quarto"), 45, True), (("menos", "quinze"), 45, True),
    (("y", "media"), 30, False), (("y", "cuarto"), 15, False), (("menos", "cuarto"), 45, True),
    (("horas",), 0, False), (("hora",), 0, False),
)
